import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { UploadWarning } from '../../../shared/schemas/intake';
import { UploadProgress } from '../UploadProgress';
import type { ItemUpload, UploadPhase } from './useItemUploads';

type ItemUploadsProps = {
  uploads: readonly ItemUpload[];
  onRetry: (id: number) => void;
  onDismiss: (id: number) => void;
};

const PHASE_TEXT: Record<UploadPhase, string> = {
  queued: 'Waiting to upload',
  uploading: 'Uploading',
  uploaded: 'Waiting to attach',
  attaching: 'Attaching',
  attached: 'Attached',
  failed: 'Not uploaded',
};

/** Each file on its way to an item: its progress, then what the checks found, or why it failed. */
export function ItemUploads({ uploads, onRetry, onDismiss }: ItemUploadsProps) {
  if (uploads.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="item-uploads">
      {uploads.map((upload) => (
        <UploadEntry key={upload.id} upload={upload} onRetry={onRetry} onDismiss={onDismiss} />
      ))}
    </Stack>
  );
}

function UploadEntry({
  upload,
  onRetry,
  onDismiss,
}: { upload: ItemUpload } & Omit<ItemUploadsProps, 'uploads'>) {
  const nameStyle = { overflowWrap: 'anywhere' } as const;
  if (upload.phase === 'failed' && upload.failure)
    return (
      <Alert
        color="red"
        title={upload.failure.title}
        withCloseButton
        closeButtonLabel={`Dismiss the message about ${upload.name}`}
        onClose={() => onDismiss(upload.id)}
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm" style={nameStyle}>{`${upload.name}: ${upload.failure.message}`}</Text>
          {/* Stored but not attached: the bytes are on the server, so attaching needs no new upload. */}
          {upload.answer && (
            <Button size="xs" variant="default" onClick={() => onRetry(upload.id)}>
              Attach again
            </Button>
          )}
        </Stack>
      </Alert>
    );
  const notices = [...upload.warnings, ...(upload.hint ? [upload.hint] : [])];
  if (notices.length === 0)
    return (
      <Stack gap={2}>
        <Text size="xs" style={nameStyle}>{`${upload.name} · ${PHASE_TEXT[upload.phase]}`}</Text>
        {upload.phase === 'uploading' && <UploadProgress percent={upload.progress} />}
      </Stack>
    );
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      title={upload.version ? `Check ${upload.name} (version ${upload.version})` : `Check ${upload.name}`}
      withCloseButton={upload.phase === 'attached'}
      closeButtonLabel={`Dismiss the checks of ${upload.name}`}
      onClose={() => onDismiss(upload.id)}
      styles={{ title: nameStyle }}
      data-testid="upload-notices"
    >
      <NoticeList notices={notices} />
      {upload.phase !== 'attached' && (
        <Text size="xs" c="dimmed" mt={4}>
          {PHASE_TEXT[upload.phase]}
        </Text>
      )}
    </Alert>
  );
}

function NoticeList({ notices }: { notices: readonly string[] }) {
  return (
    <List size="sm" spacing={2}>
      {notices.map((notice) => (
        <List.Item key={notice}>{notice}</List.Item>
      ))}
    </List>
  );
}

/**
 * What the pre-checks found in the item's current file, beside the document, for
 * the agent and the reviewer alike.
 */
export function CurrentFileWarnings({
  version,
  warnings,
}: {
  version: number;
  warnings: readonly UploadWarning[];
}) {
  if (warnings.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      title={`Checks on version ${version}`}
      data-testid="form-warnings"
    >
      <NoticeList notices={warnings.map((warning) => warning.message)} />
    </Alert>
  );
}
