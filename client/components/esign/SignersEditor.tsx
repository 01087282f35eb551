import { ActionIcon, Box, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_SIGNERS } from '../../../shared/schemas/esign';
import { signerColor } from './placement';

export type SignerDraft = { name: string; email: string };

type SignersEditorProps = {
  signers: readonly SignerDraft[];
  /** How many fields each signer has, by index: shown beside the signer. */
  fieldCounts: readonly number[];
  onChange: (index: number, signer: SignerDraft) => void;
  onAdd: () => void;
  onRemove: (index: number) => void;
};

/**
 * Who signs: a name and an e-mail address each (no account needed), in signing order, each in the
 * colour their fields wear on the page.
 */
export function SignersEditor({ signers, fieldCounts, onChange, onAdd, onRemove }: SignersEditorProps) {
  return (
    <Stack gap="xs">
      {signers.map((signer, index) => {
        const number = index + 1;
        const count = fieldCounts[index] ?? 0;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a signer is its place in the list; fields name signers by it
          <Group key={index} gap="xs" align="flex-end" wrap="wrap" data-testid={`signer-${number}`}>
            <Box
              aria-hidden="true"
              w={12}
              h={36}
              style={{ borderRadius: 2, background: `var(--mantine-color-${signerColor(index)}-6)` }}
            />
            <TextInput
              label={`Signer ${number}: name`}
              value={signer.name}
              onChange={(event) => onChange(index, { ...signer, name: event.currentTarget.value })}
              style={{ flex: '1 1 10rem' }}
              autoComplete="off"
            />
            <TextInput
              label={`Signer ${number}: e-mail`}
              type="email"
              value={signer.email}
              onChange={(event) => onChange(index, { ...signer, email: event.currentTarget.value })}
              style={{ flex: '1 1 12rem' }}
              autoComplete="off"
            />
            <Text size="xs" c="dimmed" w="4.5rem" pb={10}>
              {count === 1 ? '1 field' : `${count} fields`}
            </Text>
            <ActionIcon
              variant="default"
              size="lg"
              mb={2}
              aria-label={`Remove signer ${number}`}
              disabled={signers.length === 1}
              onClick={() => onRemove(index)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
        );
      })}
      {signers.length < MAX_SIGNERS && (
        <Group>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={onAdd}
          >
            Add a signer
          </Button>
        </Group>
      )}
    </Stack>
  );
}
