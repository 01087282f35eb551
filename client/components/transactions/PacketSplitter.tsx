import { Alert, Button, FileButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconScissors } from '@tabler/icons-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { toasts } from '../../../shared/messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { transactionUploadPath, uploadFile } from '../../api/upload';
import { PHONE_QUERY } from '../../breakpoints';
import { UploadProgress } from '../UploadProgress';
import type { Packet } from './SplitPacketModal';
import { useFileDrop } from './useFileDrop';

// With pdf.js behind it: fetched only when a packet is there to split.
const SplitPacketModal = lazy(() => import('./SplitPacketModal'));

type Notice = { color: 'red' | 'blue'; text: string };

const isPdf = (file: File) => file.type === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf');

/**
 * Where a packet (several documents scanned into one PDF) is dropped or chosen: it is uploaded to
 * the transaction, then split between the checklist's items (SplitPacketModal).
 */
export function PacketSplitter({
  transaction,
  onFileStored,
}: {
  transaction: Transaction;
  onFileStored: () => unknown;
}) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const closed = transaction.closedAt !== null;
  const [progress, setProgress] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [packet, setPacket] = useState<Packet | null>(null);
  const resetRef = useRef<() => void>(null);

  const start = async (files: File[]) => {
    resetRef.current?.();
    const [file] = files;
    if (!file || files.length > 1 || !isPdf(file)) {
      setNotice({
        color: 'red',
        text: 'Drop one PDF to split; other files go onto their document directly.',
      });
      return;
    }
    setNotice(null);
    setProgress(0);
    try {
      const answer = await uploadFile(transactionUploadPath(transaction._id), file, setProgress);
      if (answer.pages !== null && answer.pages > 1) {
        setPacket({ key: answer.key, url: answer.url, name: answer.name, pages: answer.pages });
      } else {
        setNotice({
          color: 'blue',
          text:
            answer.pages === 1
              ? `${file.name} has one page, nothing to split: upload it onto its document instead.`
              : `${file.name} could not be read as a PDF, so it cannot be split: upload it onto its document instead.`,
        });
      }
    } catch (error) {
      setNotice({ color: 'red', text: `${toasts.uploadFailed}: ${serverMessageOf(error)}` });
    } finally {
      setProgress(null);
    }
  };

  const enabled = !closed && progress === null;
  const { dragging, dropHandlers } = useFileDrop((files) => void start(files), enabled);

  return (
    <Paper
      withBorder
      p="sm"
      data-testid="packet-drop"
      {...dropHandlers}
      style={{
        borderStyle: 'dashed',
        borderColor: dragging ? 'var(--mantine-color-blue-6)' : undefined,
        background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text size="sm">
            {phone
              ? 'Split a multi-page PDF between documents'
              : 'Drop a multi-page PDF here to split it between documents'}
          </Text>
          <FileButton
            accept="application/pdf"
            onChange={(file) => void start(file ? [file] : [])}
            resetRef={resetRef}
            disabled={!enabled}
          >
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                disabled={!enabled}
                leftSection={<IconScissors size={16} aria-hidden="true" />}
              >
                Split a packet
              </Button>
            )}
          </FileButton>
        </Group>
        {progress !== null && <UploadProgress percent={progress} />}
        {notice && (
          <Alert
            color={notice.color}
            role={notice.color === 'red' ? 'alert' : 'status'}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setNotice(null)}
          >
            {notice.text}
          </Alert>
        )}
      </Stack>
      {packet && (
        <Suspense fallback={<Loader size="sm" aria-label="Loading the splitter" />}>
          <SplitPacketModal
            transaction={transaction}
            packet={packet}
            onClose={() => setPacket(null)}
            onSplit={onFileStored}
          />
        </Suspense>
      )}
    </Paper>
  );
}
