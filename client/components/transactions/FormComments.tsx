import { Group, Paper, Stack, Text } from '@mantine/core';
import type { Comment } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { ReasonList } from '../review/ReasonChips';
import { FORM_STATUS_COLOR, FORM_STATUS_LABEL } from './compliance';

/** A checklist item's comments, oldest first; nothing at all when there are none. */
export function FormComments({ comments }: { comments: readonly Comment[] }) {
  if (comments.length === 0) return null;
  return (
    <Stack gap="xs" component="ul" p={0} m={0}>
      {comments.map((comment) => (
        <CommentItem key={comment._id} comment={comment} />
      ))}
    </Stack>
  );
}

/** Who wrote it, when, the decision it came with (and its reasons), and the text. */
function CommentItem({ comment }: { comment: Comment }) {
  return (
    <Paper component="li" withBorder p="xs" radius="sm" style={{ listStyle: 'none' }}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {comment.user.firstName} {comment.user.lastName}{' '}
          <Text span size="xs" c="dimmed" fw={400}>
            ({comment.role})
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          {formatDateTime(comment.createdAt)}
        </Text>
      </Group>
      {comment.status && (
        <Text size="xs" fw={600} c={FORM_STATUS_COLOR[comment.status]}>
          {FORM_STATUS_LABEL[comment.status]}
        </Text>
      )}
      <ReasonList reasons={comment.reasons} />
      {comment.text && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.text}
        </Text>
      )}
    </Paper>
  );
}
