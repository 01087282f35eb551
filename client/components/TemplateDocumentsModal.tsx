import { Button, Group, List, Modal, Text } from '@mantine/core';
import type { TemplateDocument } from './template-rules/documents';

type TemplateDocumentsModalProps = {
  opened: boolean;
  /** The template's documents, in order: required, optional, conditional with their rules. */
  documents: TemplateDocument[];
  onClose: () => void;
};

/** Every document of one template, behind the table's 'See more'. */
export function TemplateDocumentsModal({ opened, documents, onClose }: TemplateDocumentsModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Documents List (${documents.length})`}
      // The dialog's Close button is the way out; a second close control would only repeat it.
      withCloseButton={false}
    >
      <List type="ordered" spacing="xs" mb="md">
        {documents.map(({ name, rule }, index) => (
          // Names may repeat within a template and the list does not change while shown.
          // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity here
          <List.Item key={index}>
            {name}
            {rule && (
              <Text size="xs" c="dimmed">
                {rule}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Modal>
  );
}
