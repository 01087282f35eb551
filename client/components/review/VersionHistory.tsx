import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ui } from '../../../shared/messages';
import type { FormVersion } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { useTRPC } from '../../trpc';
import { FORM_STATUS_COLOR, FORM_STATUS_LABEL } from '../transactions/compliance';
import { ReasonList } from './ReasonChips';

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const personName = (person: { firstName: string; lastName: string } | null) =>
  person ? `${person.firstName} ${person.lastName}` : 'the system';

/** What an undecided version's badge says: the item's file waits, or a newer one replaced it. */
export function undecidedText(number: number, current: number): string {
  return number < current ? `Replaced by version ${number + 1}` : 'Awaiting review';
}

/** One file of an item: who attached it when, and what was decided on it. Any version opens. */
function VersionRow({ version, current }: { version: FormVersion; current: number }) {
  const { decision } = version;
  return (
    <Stack component="li" gap={2} style={{ listStyle: 'none' }} data-testid={`version-${version.number}`}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          Version {version.number}
        </Text>
        {version.url === null ? (
          // Purged after retention: the name stays as the record of what was there.
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {version.name}
          </Text>
        ) : (
          <Anchor
            href={version.url}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            style={{ overflowWrap: 'anywhere' }}
          >
            {version.name}
          </Anchor>
        )}
        <Text size="xs" c="dimmed">
          {fileSize(version.size)}
        </Text>
        {decision ? (
          <Badge color={FORM_STATUS_COLOR[decision.status]} variant="light" tt="none">
            {FORM_STATUS_LABEL[decision.status]}
          </Badge>
        ) : (
          <Badge color="gray" variant="light" tt="none">
            {undecidedText(version.number, current)}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        Uploaded by {personName(version.uploadedBy)} on {formatDateTime(version.uploadedAt)}
        {decision &&
          ` · ${FORM_STATUS_LABEL[decision.status]} by ${personName(decision.by)} on ${formatDateTime(decision.at)}`}
      </Text>
      {decision && <ReasonList reasons={decision.reasons} />}
      {decision?.text && (
        <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {decision.text}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Every file attached to an item, newest first, loaded when shown (GET .../versions). `version`
 * is the item's current version: a new upload changes it, and the list is asked again.
 */
export function VersionHistory({
  transactionId,
  formId,
  version,
}: {
  transactionId: string;
  formId: string;
  version: number;
}) {
  const trpc = useTRPC();
  const query = useQuery(trpc.transactions.versions.queryOptions({ id: transactionId, formId }));
  // The key holds the ids only; a newer current version than the list knows means it is stale.
  const versions = query.data?.versions;
  const stale = versions !== undefined && (versions[0]?.number ?? 0) < version;
  const { isFetching, refetch } = query;
  useEffect(() => {
    if (stale && !isFetching) void refetch();
  }, [stale, isFetching, refetch]);
  if (query.isError)
    return (
      <Text size="sm" c="dimmed">
        The history could not be loaded.
      </Text>
    );
  if (!versions)
    return (
      <Text size="sm" c="dimmed">
        {ui.loading}
      </Text>
    );
  if (versions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No file has been uploaded yet.
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" p={0} m={0} aria-label="Versions">
      {versions.map((entry) => (
        <VersionRow key={entry._id} version={entry} current={Math.max(version, versions[0]?.number ?? 0)} />
      ))}
    </Stack>
  );
}
