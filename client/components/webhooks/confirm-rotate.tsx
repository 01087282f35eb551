import { Text } from '@mantine/core';
import { openConfirmModal } from '@mantine/modals';
import { webhookToasts } from './toasts';

/**
 * Asked before a rotation: the current secret keeps working for 24 hours only, so the admin
 * knows the receiver has a day to take the new one.
 */
export function confirmRotateSecret(url: string, onConfirm: () => void): void {
  openConfirmModal({
    title: 'Rotate secret',
    children: (
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {webhookToasts.rotateQuestion(url)}
      </Text>
    ),
    labels: { confirm: 'Rotate', cancel: 'Cancel' },
    onConfirm,
  });
}
