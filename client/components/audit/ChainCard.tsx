import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { auditLabels } from '../../../shared/audit-messages';
import { serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';

const count = (n: number) => n.toLocaleString('en-US');

/** The hash chain's state: checked on demand (it reads the whole trail), never on page load. */
export function ChainCard() {
  const trpc = useTRPC();
  const headingId = useId();
  const verify = useQuery({ ...trpc.audit.verify.queryOptions(), enabled: false, retry: false });
  const answer = verify.data;
  let result: string | null = null;
  if (verify.isFetching) result = auditLabels.verifying;
  else if (verify.isError) result = `${auditLabels.verifyFailed}: ${serverMessageOf(verify.error)}`;
  else if (answer?.valid) result = auditLabels.chainValid(count(answer.events));
  else if (answer) result = auditLabels.chainBroken(count(answer.events));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h3" id={headingId}>
            {auditLabels.chainHeading}
          </Title>
          <Button variant="default" loading={verify.isFetching} onClick={() => void verify.refetch()}>
            {auditLabels.verify}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {auditLabels.chainIntro}
        </Text>
        <div role="status" aria-live="polite">
          {result && (
            <Text size="sm" fw={600} c={answer && !answer.valid && !verify.isFetching ? 'red.8' : undefined}>
              {result}
            </Text>
          )}
          {answer && !answer.valid && !verify.isFetching && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {answer.firstBrokenId ? auditLabels.firstBroken(answer.firstBrokenId) : auditLabels.chainEndCut}
            </Text>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
