import { Stack, Text, Title } from '@mantine/core';
import type { Transaction } from '../../../shared/schemas/transactions';
import { FormCard } from './FormCard';
import { PacketSplitter } from './PacketSplitter';
import type { FormCallbacks } from './useFormReview';

export type { Decision } from './useFormReview';

type FormsChecklistProps = FormCallbacks & { transaction: Transaction };

/** The checklist of a transaction: one card per document, required or optional. */
export function FormsChecklist({ transaction, onComment, onReview, onFileStored }: FormsChecklistProps) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        Documents
      </Title>
      {transaction.forms.length === 0 ? (
        <Text c="dimmed" size="sm">
          This transaction has no documents to collect.
        </Text>
      ) : (
        <Stack gap="md">
          <PacketSplitter transaction={transaction} onFileStored={onFileStored} />
          {transaction.forms.map((form) => (
            <FormCard
              key={form._id}
              transactionId={transaction._id}
              closed={transaction.closedAt !== null}
              form={form}
              onComment={onComment}
              onReview={onReview}
              onFileStored={onFileStored}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
