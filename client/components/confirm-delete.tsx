import { Text } from '@mantine/core';
import { openConfirmModal } from '@mantine/modals';
import type { ReactNode } from 'react';

/** The confirmation every delete waits for: the question, Cancel, and a red Delete. */
export function confirmDelete(title: string, question: ReactNode, onConfirm: () => void): void {
  openConfirmModal({
    title,
    children: <Text size="sm">{question}</Text>,
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
