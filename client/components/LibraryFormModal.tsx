import { Anchor, Button, FileButton, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useRef, useState } from 'react';
import { alerts, toasts, ui } from '../../shared/messages';
import { type LibraryItem, libraryFormInput } from '../../shared/schemas/libraries';
import { serverMessageOf } from '../api/errors';
import { uploadFile } from '../api/upload';
import { notifyError } from '../notify';

/**
 * The add and update dialog of a library form (spec sections 4 and 5): a name and a file. The
 * file goes to POST /api/uploads/forms first (idle, uploading with percent, file URL set); the
 * key it answers is the `link` the form is saved with. Update may keep the current file.
 */

export const FORMS_UPLOAD_PATH = '/api/uploads/forms';

/** Types the server accepts (DESIGN.md section 6); the spec's hint names only the images. */
const ACCEPT = '.pdf,.png,.jpg,.jpeg,.gif,.webp,.docx,.xlsx';

export type LibraryFormValues = { name: string; link: string };

type LibraryFormModalProps = {
  opened: boolean;
  title: string;
  /** The form being updated, or nothing on add. */
  initial?: LibraryItem;
  submitting: boolean;
  onSubmit: (input: LibraryFormValues) => void;
  onClose: () => void;
};

export function LibraryFormModal({
  opened,
  title,
  initial,
  submitting,
  onSubmit,
  onClose,
}: LibraryFormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* The modal unmounts its content once closed, so every opening starts from `initial`. */}
      <LibraryFormFields initial={initial} submitting={submitting} onSubmit={onSubmit} onCancel={onClose} />
    </Modal>
  );
}

type FieldsProps = Pick<LibraryFormModalProps, 'initial' | 'submitting' | 'onSubmit'> & {
  onCancel: () => void;
};

/** What the dialog shows of the chosen file: its name and where it can be opened. */
type ShownFile = { name: string; url: string };

function LibraryFormFields({ initial, submitting, onSubmit, onCancel }: FieldsProps) {
  const form = useForm<LibraryFormValues>({
    mode: 'uncontrolled',
    initialValues: { name: initial?.name ?? '', link: initial?.link ?? '' },
    validate: schemaResolver(libraryFormInput, { sync: true }),
  });
  const [progress, setProgress] = useState<number | null>(null);
  const [shown, setShown] = useState<ShownFile | null>(
    initial ? { name: 'Current file', url: initial.link } : null,
  );
  // Cleared after each attempt, so picking the same file again still fires a change.
  const resetRef = useRef<() => void>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setProgress(0);
    try {
      const answer = await uploadFile(FORMS_UPLOAD_PATH, file, setProgress);
      form.setFieldValue('link', answer.key);
      form.clearFieldError('link');
      setShown({ name: answer.name, url: answer.url });
    } catch (error) {
      notifyError(toasts.uploadFailed, serverMessageOf(error));
    } finally {
      setProgress(null);
      resetRef.current?.();
    }
  };

  const submit = form.onSubmit(
    (values) => onSubmit(libraryFormInput.parse(values)),
    (errors) => {
      // Spec section 5: a missing file is also said with an alert.
      if (errors.link) window.alert(alerts.pleaseUploadFile);
    },
  );

  const uploading = progress !== null;
  const linkError = form.errors.link;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
        <Stack gap={6}>
          <Text size="sm" fw={500} id="library-form-file-label">
            File{' '}
            <Text span c="red" aria-hidden="true">
              *
            </Text>
          </Text>
          <Group gap="sm">
            <FileButton
              resetRef={resetRef}
              onChange={upload}
              accept={ACCEPT}
              disabled={uploading || submitting}
            >
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  size="sm"
                  aria-describedby="library-form-file-hint"
                  disabled={uploading || submitting}
                >
                  {shown ? 'Replace file' : 'Choose file'}
                </Button>
              )}
            </FileButton>
            {shown && !uploading && (
              <Anchor href={shown.url} target="_blank" rel="noopener noreferrer" size="sm">
                {shown.name}
              </Anchor>
            )}
          </Group>
          <Text size="xs" c="dimmed" id="library-form-file-hint">
            PNG, JPG, GIF up to 10MB
          </Text>
          {uploading && (
            <Group gap="sm" wrap="nowrap">
              <Progress value={progress} flex={1} aria-label="Upload progress" transitionDuration={150} />
              <Text size="xs" c="dimmed" w={40} ta="right">
                {progress}%
              </Text>
            </Group>
          )}
          {linkError && (
            <Text c="red" size="sm" role="alert">
              {linkError}
            </Text>
          )}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitting || uploading}>
            {submitting ? ui.loading : 'Submit'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
