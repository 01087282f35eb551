import { ActionIcon, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import { ui, validation } from '../../shared/messages';
import { type TemplateInput, templateInput } from '../../shared/schemas/templates';

/**
 * The add and update dialog of a checklist template (spec sections 2, 3 and 5). The form holds
 * the documents as objects with a name, one input each; submitting maps them to `forms` strings.
 */

type DocumentField = { name: string; key: string };

export type TemplateFormValues = {
  type: string;
  role: string;
  documents: DocumentField[];
};

const documentField = (name = ''): DocumentField => ({ name, key: randomId() });

// Each field reuses the shared contract's rule, so the dialog and the server agree on the
// messages ('Type is required', ...) and the length limits.
const { type, role, forms } = templateInput.shape;

export const templateFormSchema = z
  .object({
    type,
    role,
    documents: z.array(z.object({ name: forms.element })),
  })
  .superRefine((values, context) => {
    // Rules on the list as a whole (at least one, not too many) come from the contract too.
    const result = templateInput.safeParse(toTemplateInput(values));
    if (result.success) return;
    for (const issue of result.error.issues) {
      if (issue.path.length === 1 && issue.path[0] === 'forms') {
        context.addIssue({ code: 'custom', path: ['documents'], message: issue.message });
      }
    }
  });

/** The values the API takes: the document objects become their names. */
export function toTemplateInput(values: { type: string; role: string; documents: { name: string }[] }) {
  return { type: values.type, role: values.role, forms: values.documents.map((document) => document.name) };
}

type TemplateFormModalProps = {
  opened: boolean;
  title: string;
  /** What the fields start with: a template's own values on update, nothing on add. */
  initial?: { type: string; role: string; forms: string[] };
  submitting: boolean;
  onSubmit: (input: TemplateInput) => void;
  onClose: () => void;
};

export function TemplateFormModal({
  opened,
  title,
  initial,
  submitting,
  onSubmit,
  onClose,
}: TemplateFormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* The modal unmounts its content once closed, so every opening starts from `initial`. */}
      <TemplateForm initial={initial} submitting={submitting} onSubmit={onSubmit} onCancel={onClose} />
    </Modal>
  );
}

type TemplateFormProps = Pick<TemplateFormModalProps, 'initial' | 'submitting' | 'onSubmit'> & {
  onCancel: () => void;
};

function TemplateForm({ initial, submitting, onSubmit, onCancel }: TemplateFormProps) {
  const form = useForm<TemplateFormValues>({
    mode: 'uncontrolled',
    initialValues: {
      type: initial?.type ?? '',
      role: initial?.role ?? '',
      // One document field to start with (spec section 5), or the template's own documents.
      documents: initial?.forms.length ? initial.forms.map((name) => documentField(name)) : [documentField()],
    },
    validate: schemaResolver(templateFormSchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => onSubmit(templateInput.parse(toTemplateInput(values))));
  const documents = form.getValues().documents;
  const listError = form.errors.documents;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Type" withAsterisk key={form.key('type')} {...form.getInputProps('type')} />
        <TextInput
          label="Role"
          description={validation.roleHint}
          withAsterisk
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
        <Stack gap="xs" role="group" aria-label="Documents">
          {documents.map((document, index) => (
            <Group key={document.key} align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                label={`Document ${index + 1}`}
                withAsterisk
                style={{ flex: 1 }}
                key={form.key(`documents.${index}.name`)}
                {...form.getInputProps(`documents.${index}.name`)}
              />
              {documents.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={`Remove document ${index + 1}`}
                  onClick={() => form.removeListItem('documents', index)}
                >
                  <IconTrash size={18} aria-hidden="true" />
                </ActionIcon>
              )}
            </Group>
          ))}
          {listError && (
            <Text c="red" size="sm" role="alert">
              {listError}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => form.insertListItem('documents', documentField())}
            >
              Add
            </Button>
          </Group>
        </Stack>
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
