import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { archiveLabels } from '../../../shared/archive-messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { downloadFile } from '../../api/download';
import { serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { notifyError } from '../../notify';
import { useTRPC } from '../../trpc';
import { DetailCard } from './DetailCard';

/** How often the card asks again while the archive is being sealed. */
const PREPARING_POLL_MS = 2_000;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

/**
 * Both detail pages, on a closed file: its sealed archive (documents, file.pdf, the audit trail and
 * a signed manifest), "being prepared" until the job has sealed it, then its time, its sha256 and
 * the download (an authenticated fetch, saved from a blob like the CSV exports).
 */
export function ArchiveCard({ transaction }: { transaction: Transaction }) {
  const trpc = useTRPC();
  const closed = transaction.closedAt !== null;
  const status = useQuery({
    ...trpc.archives.status.queryOptions({ id: transaction._id }),
    enabled: closed,
    // The answer of an earlier close (reopened and closed since) is not this close's archive.
    refetchInterval: (query) => {
      const answer = query.state.data;
      return answer?.closedAt === transaction.closedAt && answer.status !== 'preparing'
        ? false
        : PREPARING_POLL_MS;
    },
  });
  const [busy, setBusy] = useState(false);
  if (!closed) return null;
  const answer = status.data?.closedAt === transaction.closedAt ? status.data : null;

  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(`/api/transactions/${transaction._id}/archive`, `archive-${transaction._id}.zip`);
    } catch (error) {
      notifyError(archiveLabels.downloadFailed, serverMessageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DetailCard title={archiveLabels.title}>
      <div data-testid="archive" aria-live="polite">
        {answer?.status === 'ready' ? (
          <Stack gap="sm">
            <Group gap="md" wrap="wrap">
              <Button leftSection={<IconDownload size={16} aria-hidden />} loading={busy} onClick={download}>
                {archiveLabels.download}
              </Button>
              {answer.bytes !== null && (
                <Text size="sm" c="dimmed">
                  {archiveLabels.size}: {megabytes(answer.bytes)}
                </Text>
              )}
            </Group>
            {answer.sealedAt && (
              <Text size="sm">
                {archiveLabels.sealedAt}: {formatDateTime(answer.sealedAt)}
              </Text>
            )}
            {answer.sha256 && (
              <Text size="sm">
                {archiveLabels.sha256}:{' '}
                <Code data-testid="archive-sha256" style={{ wordBreak: 'break-all' }}>
                  {answer.sha256}
                </Code>
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="sm">
            {answer?.status === 'failed' ? archiveLabels.failed : archiveLabels.preparing}
          </Text>
        )}
      </div>
    </DetailCard>
  );
}
