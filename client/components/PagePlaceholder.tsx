import { Container, Text, Title } from '@mantine/core';

type PagePlaceholderProps = {
  title: string;
  /** The feature that brings the real page, shown as "arrives with ...". */
  arrivesWith: string;
};

/** Stands in for a page that a later feature builds, so its route, guard and shell work today. */
export function PagePlaceholder({ title, arrivesWith }: PagePlaceholderProps) {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>{title}</Title>
      <Text c="dimmed" mt="sm">
        This page arrives with {arrivesWith}.
      </Text>
    </Container>
  );
}
