import { Container, Stack, Title } from '@mantine/core';
import { BannerEditor } from '../banner/BannerEditor';

/**
 * The banner editor (/banner). This page is a lazy route, and it is
 * the only importer of client/banner/, so konva ships in this page's chunk alone.
 */
export function Banner() {
  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <Title order={1}>Banner</Title>
        <BannerEditor />
      </Stack>
    </Container>
  );
}
