import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../notify';

/** Recovery codes as a text file: one a line. */
function download(codes: readonly string[]) {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/** The 10 recovery codes, shown once after two-factor sign-in is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const copy = async () => {
    await navigator.clipboard.writeText(codes.join('\n'));
    notifySuccess('Recovery codes copied');
  };
  return (
    <Stack gap="sm">
      <Alert color="yellow" title="Save your recovery codes now">
        Each code signs you in once if your authenticator app is not at hand. They are shown only this once:
        copy or download them and keep them somewhere safe.
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" aria-label="Recovery codes" role="list">
        {codes.map((code) => (
          <Code key={code} role="listitem" fz="sm">
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group>
        <Button variant="light" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="light" onClick={() => download(codes)}>
          Download
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </Group>
      <Text size="sm" c="dimmed">
        Lost them? Turn two-factor sign-in off and on again for a new set.
      </Text>
    </Stack>
  );
}
