import { Anchor, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { NO_ROLE } from '../../../shared/constants';
import { ui } from '../../../shared/messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { useScrollToHash } from './anchors';

type TransactionDetailLayoutProps = {
  transaction: Transaction | undefined;
  /** The load failed and the transaction does not exist for this user. */
  missing: boolean;
  /** The load failed for another reason (a toast offers a retry). */
  failed: boolean;
  back: { href: string; label: string };
  children: (transaction: Transaction) => ReactNode;
};

/** The frame of both detail pages: heading, address, and the loading and not-found states. */
export function TransactionDetailLayout({
  transaction,
  missing,
  failed,
  back,
  children,
}: TransactionDetailLayoutProps) {
  useScrollToHash(transaction !== undefined);
  let body: ReactNode;
  if (transaction) {
    body = (
      <>
        <Stack gap={4}>
          <Title order={2} size="h3">
            {transaction.streetAddress}, {transaction.city}, {transaction.state} {transaction.zip}
          </Title>
          <Text size="sm" c="dimmed">
            {transaction.type}
            {transaction.role !== NO_ROLE && ` · ${transaction.role}`} · {transaction.user.firstName}{' '}
            {transaction.user.lastName} · created {formatDateTime(transaction.createdAt)}
          </Text>
        </Stack>
        {children(transaction)}
      </>
    );
  } else if (missing) {
    body = (
      <Stack gap="sm" align="flex-start" role="alert">
        <Title order={2} size="h3">
          Transaction not found
        </Title>
        <Text c="dimmed">It may have been deleted, or it is not yours to see.</Text>
        <Button
          component={Link}
          href={back.href}
          variant="light"
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
        >
          {back.label}
        </Button>
      </Stack>
    );
  } else if (failed) {
    body = <Text c="dimmed">The transaction could not be loaded.</Text>;
  } else {
    body = <Text c="dimmed">{ui.loading}</Text>;
  }

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="baseline">
          <Title order={1}>Transaction</Title>
          {/* The not-found state has its own, bigger way back. */}
          {!missing && (
            <Anchor component={Link} href={back.href} size="sm">
              {back.label}
            </Anchor>
          )}
        </Group>
        {body}
      </Stack>
    </Container>
  );
}
