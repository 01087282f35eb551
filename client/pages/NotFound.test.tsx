import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ui } from '../../shared/messages';
import { renderWithProviders } from '../test-utils/render';
import { NotFound } from './NotFound';

// The product's sentence, typed out here so an edit to messages.ts cannot pass unnoticed.
const SPEC_TEXT = '404 page not found. We are sorry but the page you are looking for does not exist.';

describe('NotFound', () => {
  it('shows the product text verbatim', () => {
    expect(ui.notFound).toBe(SPEC_TEXT);
    renderWithProviders(<NotFound />, { path: '/not-found' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(SPEC_TEXT, {
      normalizeWhitespace: false,
    });
    expect(screen.getByText(SPEC_TEXT)).toBeVisible();
  });

  it('leads a visitor to sign in', async () => {
    const { user, currentPath } = renderWithProviders(<NotFound />, { path: '/not-found' });
    const link = screen.getByRole('link', { name: 'Go to sign in' });
    expect(link).toHaveAttribute('href', '/auth/login');
    await user.click(link);
    expect(currentPath()).toBe('/auth/login');
  });
});
