import { Button, FileButton } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { FILE_PICKER_ACCEPT } from '../../../shared/file-types';

/** A checklist item's Upload: picks one file or several, of the types the portal accepts. */
export function UploadButton({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[]) => void }) {
  // Cleared after each pick, so picking the same file again still fires a change.
  const resetRef = useRef<() => void>(null);
  return (
    <FileButton
      multiple
      onChange={(files) => {
        resetRef.current?.();
        onFiles(files);
      }}
      accept={FILE_PICKER_ACCEPT}
      resetRef={resetRef}
      disabled={disabled}
    >
      {(props) => (
        <Button
          {...props}
          size="xs"
          variant="light"
          disabled={disabled}
          leftSection={<IconUpload size={16} aria-hidden="true" />}
        >
          Upload
        </Button>
      )}
    </FileButton>
  );
}
