import { Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ui } from '../../shared/messages';

type SubmitButtonProps = Omit<ButtonProps, 'disabled'> & {
  /** The form's call is under way: the button is disabled and reads 'Loading...'. */
  pending: boolean;
  /** Disabled for another reason as well (a file still uploading). */
  disabled?: boolean;
  children: ReactNode;
};

/** A form's submit button, which reads 'Loading...' while the form is being sent. */
export function SubmitButton({ pending, disabled = false, children, ...props }: SubmitButtonProps) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? ui.loading : children}
    </Button>
  );
}
