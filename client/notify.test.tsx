import { notifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from './breakpoints';
import { notifySuccess } from './notify';
import { deviceMatching } from './test-utils/media';
import { renderWithProviders } from './test-utils/render';

/** Where a toast lands: the group of toasts it sits in carries Mantine's position. */
async function positionOfToast(message: string) {
  renderWithProviders(<main />);
  act(() => notifySuccess(message));
  return (await screen.findByText(message)).closest('[data-position]')?.getAttribute('data-position');
}

afterEach(() => {
  vi.restoreAllMocks();
  notifications.clean();
});

describe('toasts', () => {
  it('appear top-right on a wide screen', async () => {
    expect(await positionOfToast('Form added successfully')).toBe('top-right');
  });

  it("rise from the bottom on a phone, clear of the top bar and the page's way back", async () => {
    deviceMatching(PHONE_QUERY);
    expect(await positionOfToast('Comment added successfully!')).toBe('bottom-center');
  });
});
