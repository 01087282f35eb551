import { Button, Group, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useId } from 'react';
import { complianceMessages } from '../../../shared/messages';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import type { FormReview } from './useFormReview';

type ReviewButtonsProps = {
  form: TransactionForm;
  /** A closed file takes no decision. */
  closed: boolean;
  review: FormReview;
};

/** The admin's decisions on a checklist item: Accept or Reject its file, approve or deny a waiver. */
export function ReviewButtons({ form, closed, review }: ReviewButtonsProps) {
  const noFileId = useId();
  const hasFile = form.version > 0;
  return (
    <Group gap="xs">
      <Button
        size="xs"
        color="green"
        variant="light"
        disabled={review.locked || closed || !hasFile}
        aria-describedby={hasFile ? undefined : noFileId}
        leftSection={<IconCheck size={16} aria-hidden="true" />}
        onClick={review.accept}
      >
        Accept
      </Button>
      <Button
        size="xs"
        color="red"
        variant="light"
        disabled={review.locked || closed || !hasFile}
        aria-describedby={hasFile ? undefined : noFileId}
        leftSection={<IconX size={16} aria-hidden="true" />}
        onClick={review.reject}
      >
        Reject
      </Button>
      {!hasFile && (
        <Text id={noFileId} size="xs" c="dimmed">
          {complianceMessages.noFileToReview}
        </Text>
      )}
      {form.waiver?.status === 'requested' && (
        <>
          <Button
            size="xs"
            color="green"
            variant="light"
            disabled={review.locked || closed}
            onClick={() => review.decideOnWaiver(true)}
          >
            Approve waiver
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={review.locked || closed}
            onClick={() => review.decideOnWaiver(false)}
          >
            Deny waiver
          </Button>
        </>
      )}
    </Group>
  );
}
