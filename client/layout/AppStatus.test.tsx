import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppStatus } from './AppStatus';

/** The browser's word on the connection, as jsdom lets a test set it. */
function goOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

afterEach(() => vi.restoreAllMocks());

describe('AppStatus', () => {
  it('says nothing online, and the offline message as soon as the signal goes', async () => {
    render(<AppStatus />);
    expect(screen.queryByRole('status')).toBeNull();

    goOnline(false);
    expect(await screen.findByText('You are offline: changes will be sent when you are back')).toBeVisible();
    expect(screen.getByRole('complementary', { name: "The app's status" })).toBeVisible();

    goOnline(true);
    expect(screen.queryByText('You are offline: changes will be sent when you are back')).toBeNull();
  });
});
