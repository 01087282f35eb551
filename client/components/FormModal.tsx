import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a page hands its add-and-update dialog. */
export type EditDialogProps<TItem, TValues> = {
  opened: boolean;
  title: string;
  /** The item being updated, or nothing on add. */
  initial?: TItem;
  submitting: boolean;
  onSubmit: (values: TValues) => void;
  onClose: () => void;
};

type FormModalProps = {
  opened: boolean;
  title: string;
  onClose: () => void;
  /** The form. Mantine unmounts a closed modal's content, so each opening starts it afresh. */
  children: ReactNode;
};

/** A dialog around a form, its close button named for screen readers. */
export function FormModal({ opened, title, onClose, children }: FormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {children}
    </Modal>
  );
}
