import { Modal, type ModalProps } from '@mantine/core';
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
  /** A wide form (one with a document to work on) asks for more room, or the whole screen on a phone. */
  size?: ModalProps['size'];
  fullScreen?: boolean;
  /** The form. Mantine unmounts a closed modal's content, so each opening starts it afresh. */
  children: ReactNode;
};

/** A dialog around a form, its close button named for screen readers. */
export function FormModal({ opened, title, onClose, size, fullScreen, children }: FormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {children}
    </Modal>
  );
}
