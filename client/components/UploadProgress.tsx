import { Group, Progress, Text } from '@mantine/core';

/** The 'uploading with percent' state of a file field. */
export function UploadProgress({ percent }: { percent: number }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Progress value={percent} flex={1} aria-label="Upload progress" transitionDuration={150} />
      <Text size="xs" c="dimmed" w={40} ta="right">
        {percent}%
      </Text>
    </Group>
  );
}
