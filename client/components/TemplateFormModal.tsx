import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import { validation } from '../../shared/messages';
import { type TemplateInput, templateInput } from '../../shared/schemas/templates';
import { DialogActions } from './DialogActions';
import { type EditDialogProps, FormModal } from './FormModal';

/**
 * The add and update dialog of a checklist template (spec sections 2, 3 and 5). The form holds
 * the documents as objects with a name, one input each; submitting maps them to `forms` strings.
 */

type DocumentField = { name: string; key: string };

type TemplateFormValues = {
  type: string;
  role: string;
  documents: DocumentField[];
};

const documentField = (name = ''): DocumentField => ({ name, key: randomId() });

// Each field reuses the shared contract's rule, so the dialog and the server agree on the
// messages ('Type is required', ...) and the length limits.
const { type, role, forms } = templateInput.shape;

const templateFormSchema = z
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
function toTemplateInput(values: { type: string; role: string; documents: { name: string }[] }) {
  return { type: values.type, role: values.role, forms: values.documents.map((document) => document.name) };
}

/** `initial` is what the fields start with: a template's own values on update, nothing on add. */
type TemplateFormModalProps = EditDialogProps<{ type: string; role: string; forms: string[] }, TemplateInput>;

export function TemplateFormModal({ opened, title, onClose, ...form }: TemplateFormModalProps) {
  return (
    <FormModal opened={opened} title={title} onClose={onClose}>
      <TemplateForm {...form} onCancel={onClose} />
    </FormModal>
  );
}

type TemplateFormProps = Omit<TemplateFormModalProps, 'opened' | 'title' | 'onClose'> & {
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
        <DialogActions pending={submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
