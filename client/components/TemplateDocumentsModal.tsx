import { Button, Group, List, Modal } from '@mantine/core';

type TemplateDocumentsModalProps = {
  opened: boolean;
  /** The template's required document names, in order. */
  documents: string[];
  /** Its optional ones, listed after them. */
  optionalDocuments?: string[];
  onClose: () => void;
};

/** Every document of one template, behind the table's 'See more'. */
export function TemplateDocumentsModal({
  opened,
  documents,
  optionalDocuments = [],
  onClose,
}: TemplateDocumentsModalProps) {
  const all = [...documents, ...optionalDocuments.map((name) => `${name} (optional)`)];
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Documents List (${all.length})`}
      // The dialog's Close button is the way out; a second close control would only repeat it.
      withCloseButton={false}
    >
      <List type="ordered" spacing="xs" mb="md">
        {all.map((name, index) => (
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
