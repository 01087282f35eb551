import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { ui } from '../../shared/messages';
import { type LibraryItem, tutorialInput } from '../../shared/schemas/libraries';

/** The add and update dialog of a tutorial (spec section 5): a name and an http(s) link. */

export type LibraryTutorialValues = { name: string; link: string };

type LibraryTutorialModalProps = {
  opened: boolean;
  title: string;
  /** The tutorial being updated, or nothing on add. */
  initial?: LibraryItem;
  submitting: boolean;
  onSubmit: (input: LibraryTutorialValues) => void;
  onClose: () => void;
};

export function LibraryTutorialModal({
  opened,
  title,
  initial,
  submitting,
  onSubmit,
  onClose,
}: LibraryTutorialModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* The modal unmounts its content once closed, so every opening starts from `initial`. */}
      <TutorialFields initial={initial} submitting={submitting} onSubmit={onSubmit} onCancel={onClose} />
    </Modal>
  );
}

type FieldsProps = Pick<LibraryTutorialModalProps, 'initial' | 'submitting' | 'onSubmit'> & {
  onCancel: () => void;
};

function TutorialFields({ initial, submitting, onSubmit, onCancel }: FieldsProps) {
  const form = useForm<LibraryTutorialValues>({
    mode: 'uncontrolled',
    initialValues: { name: initial?.name ?? '', link: initial?.link ?? '' },
    validate: schemaResolver(tutorialInput, { sync: true }),
  });
  const submit = form.onSubmit((values) => onSubmit(tutorialInput.parse(values)));

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Link"
          type="url"
          placeholder="https://"
          withAsterisk
          key={form.key('link')}
          {...form.getInputProps('link')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" disabled={submitting}>
            {submitting ? ui.loading : 'Submit'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
