import { Anchor, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { type ReactNode, useRef, useState } from 'react';
import { FILE_PICKER_ACCEPT } from '../../shared/file-types';
import { toasts } from '../../shared/messages';
import { serverMessageOf } from '../api/errors';
import { uploadFile } from '../api/upload';
import { notifyError } from '../notify';
import { UploadProgress } from './UploadProgress';

const FORMS_UPLOAD_PATH = '/api/uploads/forms';

/** What the field shows of the chosen file: its name and where it can be opened. */
type ShownFile = { name: string; url: string };

type LibraryFileFieldProps = {
  /** The link of the form being updated, or nothing on add. */
  current?: string;
  error: ReactNode;
  disabled: boolean;
  /** Gets the key the upload answered: the `link` the form is saved with. */
  onUploaded: (key: string) => void;
  /** True from the file's choice until its upload ends, either way. */
  onUploadingChange: (uploading: boolean) => void;
};

/**
 * The File field of a library form: the file goes to POST
 * /api/uploads/forms first (idle, uploading with percent, file URL set). Update may keep the
 * current file.
 */
export function LibraryFileField({
  current,
  error,
  disabled,
  onUploaded,
  onUploadingChange,
}: LibraryFileFieldProps) {
  const [progress, setProgress] = useState<number | null>(null);
  const [shown, setShown] = useState<ShownFile | null>(
    current ? { name: 'Current file', url: current } : null,
  );
  // Cleared after each attempt, so picking the same file again still fires a change.
  const resetRef = useRef<() => void>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setProgress(0);
    onUploadingChange(true);
    try {
      const answer = await uploadFile(FORMS_UPLOAD_PATH, file, setProgress);
      onUploaded(answer.key);
      setShown({ name: answer.name, url: answer.url });
    } catch (failure) {
      notifyError(toasts.uploadFailed, serverMessageOf(failure));
    } finally {
      setProgress(null);
      onUploadingChange(false);
      resetRef.current?.();
    }
  };

  const uploading = progress !== null;

  return (
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
          accept={FILE_PICKER_ACCEPT}
          disabled={uploading || disabled}
        >
          {(props) => (
            <Button
              {...props}
              variant="default"
              size="sm"
              aria-describedby="library-form-file-hint"
              disabled={uploading || disabled}
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
      {/* The product's hint, which names only the images; the picker offers every accepted type. */}
      <Text size="xs" c="dimmed" id="library-form-file-hint">
        PNG, JPG, GIF up to 10MB
      </Text>
      {progress !== null && <UploadProgress percent={progress} />}
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
