import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { Cda } from '../../../shared/schemas/commission';
import { formatDateTime } from '../../dates';
import { CDA_LINE_KIND_LABELS, CDA_STATUS_BADGES, shortHash } from './cda-view';
import { formatCents } from './money';

type CdaListProps = {
  /** Newest first, as the server lists them; undefined while loading. */
  cdas: Cda[] | undefined;
  failed: boolean;
};

/** Every version of the transaction's commission disbursement authorization, newest first. */
export function CdaList({ cdas, failed }: CdaListProps) {
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Commission disbursement authorizations
      </Title>
      {failed ? (
        <Text size="sm" c="red">
          The CDAs could not be loaded.
        </Text>
      ) : !cdas ? (
        <Text size="sm" c="dimmed">
          Loading CDAs…
        </Text>
      ) : cdas.length === 0 ? (
        <Text size="sm" c="dimmed">
          No CDA issued yet.
        </Text>
      ) : (
        cdas.map((cda) => <CdaVersion key={cda._id} cda={cda} />)
      )}
    </Stack>
  );
}

function CdaVersion({ cda }: { cda: Cda }) {
  const badge = CDA_STATUS_BADGES[cda.status];
  const headingId = `cda-${cda._id}`;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="article"
      aria-labelledby={headingId}
      data-testid={`cda-version-${cda.version}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={4} size="h6" id={headingId}>
              Version {cda.version}
            </Title>
            <Badge variant="light" color={badge.color} tt="none">
              {badge.label}
            </Badge>
          </Group>
          <Text size="sm" fw={600}>
            Gross {formatCents(cda.grossCents)}
          </Text>
        </Group>
        {/* Three short columns fit a phone: no sideways scrolling region to reach by keyboard. */}
        <Table verticalSpacing={4} aria-label={`Version ${cda.version} lines`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Payee</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cda.lines.map((line) => (
              <Table.Tr key={`${line.kind}-${line.payee}`}>
                <Table.Td>{line.payee}</Table.Td>
                <Table.Td>{CDA_LINE_KIND_LABELS[line.kind]}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{formatCents(line.amountCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm">
          Issued {formatDateTime(cda.issuedAt)} by {cda.issuedBy.name}
          {cda.paidAt && ` · paid ${formatDateTime(cda.paidAt)}${cda.paidBy ? ` by ${cda.paidBy.name}` : ''}`}
        </Text>
        {cda.override && (
          <Text size="sm" data-testid="cda-override">
            Issued before the file was compliant: {cda.override.reason}
          </Text>
        )}
        <Group gap="sm" wrap="wrap">
          <Anchor
            href={cda.pdfUrl}
            download={`cda-v${cda.version}.pdf`}
            size="sm"
            aria-label={`Download PDF of version ${cda.version}`}
          >
            <Group gap={4} component="span" wrap="nowrap">
              <IconDownload size={16} aria-hidden="true" />
              Download PDF
            </Group>
          </Anchor>
          <Text size="xs" c="dimmed">
            SHA-256{' '}
            <Text
              span
              ff="monospace"
              size="xs"
              title={cda.sha256}
              data-testid="cda-sha256"
              data-sha256={cda.sha256}
            >
              {shortHash(cda.sha256)}
            </Text>
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
