import { Button, Group, Textarea } from '@mantine/core';
import { ReasonChips } from '../review/ReasonChips';
import type { FormReview } from './useFormReview';

/**
 * A checklist item's open comment box: the rejection reasons while rejecting, the text, Cancel
 * and Post comment. Its parts sit in the card's own stack, so it draws no wrapper of its own.
 */
export function CommentBox({ review, reviewer }: { review: FormReview; reviewer: boolean }) {
  return (
    <>
      {review.rejecting && (
        <ReasonChips value={review.reasons} onChange={review.setReasons} disabled={review.locked} />
      )}
      <Textarea
        ref={review.boxRef}
        aria-label="Comment"
        placeholder={reviewer ? 'Comment (optional with Accept or Reject)' : 'Write a comment'}
        rows={2}
        resize="vertical"
        value={review.text}
        error={review.error}
        onChange={(event) => review.edit(event.currentTarget.value)}
      />
      <Group justify="flex-end" gap="xs">
        <Button size="xs" variant="subtle" color="gray" disabled={review.locked} onClick={review.clear}>
          Cancel
        </Button>
        <Button size="xs" variant="default" disabled={review.locked} onClick={review.postComment}>
          {review.busy === 'comment' ? 'Posting...' : 'Post comment'}
        </Button>
      </Group>
    </>
  );
}
