import { Button, Group, List, Modal } from '@mantine/core';

type TemplateDocumentsModalProps = {
  opened: boolean;
  /** The template's document names, in order. */
  documents: string[];
  onClose: () => void;
};

/** Every document of one template, behind the table's 'See more' (spec section 2). */
export function TemplateDocumentsModal({ opened, documents, onClose }: TemplateDocumentsModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Documents List (${documents.length})`}
      // The spec's Close button is the way out; a second close control would only repeat it.
      withCloseButton={false}
    >
      <List type="ordered" spacing="xs" mb="md">
        {documents.map((name, index) => (
          // Names may repeat within a template and the list does not change while shown.
          // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity here
          <List.Item key={index}>{name}</List.Item>
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
