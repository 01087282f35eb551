import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from './App';

// The real tree, with the browser location and the real tRPC client, as main.tsx mounts it.
describe('App', () => {
  it('boots at / and lands on sign-in in the browser URL', async () => {
    window.history.replaceState(null, '', '/');
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(window.location.pathname).toBe('/auth/login');
  });
});
