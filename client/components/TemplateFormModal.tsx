import { ActionIcon, Button, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { z } from 'zod';
import { validation } from '../../shared/messages';
import type { ApiIssue } from '../../shared/schemas/common';
import { KEY_DATE_LABELS } from '../../shared/schemas/key-dates';
import { TEMPLATE_KEY_DATE_KINDS, type TemplateInput, templateInput } from '../../shared/schemas/templates';
import { DialogActions } from './DialogActions';
import { type EditDialogProps, FormModal } from './FormModal';
import { TypeField, useTemplateTypes } from './TemplateTypeField';
import { ConditionalItemsEditor } from './template-rules/ConditionalItemsEditor';
import { conditionalFormsOf, type RuleAnswer } from './template-rules/conditional-items';
import { conditionalErrorsOf, useConditionalItems } from './template-rules/useConditionalItems';

/**
 * The add and update dialog of a checklist template. The form holds
 * the documents as objects with a name, one input each; submitting maps them to `forms` strings.
 */

type DocumentField = { name: string; key: string };

type TemplateFormValues = {
  type: string;
  role: string;
  /** The required documents. */
  documents: DocumentField[];
  /** The optional ones: collected, never holding a file back. */
  optional: DocumentField[];
  /** The key dates its transactions start with, as empty rows to fill. */
  keyDateKinds: string[];
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
    optional: z.array(z.object({ name: forms.element })),
    keyDateKinds: z.array(z.string()),
  })
  .superRefine((values, context) => {
    // Rules on the list as a whole (at least one, not too many) come from the contract too.
    const result = templateInput.safeParse(toTemplateInput(values));
    if (result.success) return;
    for (const issue of result.error.issues) {
      if (issue.path.length === 1 && issue.path[0] === 'forms') {
        context.addIssue({ code: 'custom', path: ['documents'], message: issue.message });
      } else if (issue.path[0] === 'optionalForms' && typeof issue.path[1] === 'number') {
        // A name in both lists: said on the optional field.
        context.addIssue({
          code: 'custom',
          path: ['optional', issue.path[1], 'name'],
          message: issue.message,
        });
      } else if (issue.path.length === 1 && issue.path[0] === 'optionalForms') {
        context.addIssue({ code: 'custom', path: ['optional'], message: issue.message });
      }
    }
  });

/** The values the API takes: the document objects become their names. */
function toTemplateInput(values: {
  type: string;
  role: string;
  documents: { name: string }[];
  optional: { name: string }[];
  keyDateKinds: string[];
}) {
  return {
    type: values.type,
    role: values.role,
    forms: values.documents.map((document) => document.name),
    optionalForms: values.optional.map((document) => document.name),
    keyDateKinds: values.keyDateKinds,
  };
}

/** `initial` is what the fields start with: a template's own values on update, nothing on add. */
type TemplateFormModalProps = EditDialogProps<
  {
    type: string;
    role: string;
    forms: string[];
    optionalForms?: string[];
    keyDateKinds?: string[];
    conditionalForms?: RuleAnswer[];
  },
  TemplateInput
> & {
  /** What the server refused in the last submit, shown on the fields it names. */
  issues?: ApiIssue[];
};

export function TemplateFormModal({ opened, title, onClose, ...form }: TemplateFormModalProps) {
  return (
    <FormModal opened={opened} title={title} onClose={onClose}>
      <TemplateForm {...form} onCancel={onClose} />
    </FormModal>
  );
}

/** Every kind but `custom` (a template cannot name one), with its label. */
const KEY_DATE_OPTIONS = TEMPLATE_KEY_DATE_KINDS.map((kind) => ({
  value: kind,
  label: KEY_DATE_LABELS[kind as keyof typeof KEY_DATE_LABELS],
}));

type TemplateFormProps = Omit<TemplateFormModalProps, 'opened' | 'title' | 'onClose'> & {
  onCancel: () => void;
};

function TemplateForm({ initial, submitting, issues, onSubmit, onCancel }: TemplateFormProps) {
  const form = useForm<TemplateFormValues>({
    mode: 'uncontrolled',
    initialValues: {
      type: initial?.type ?? '',
      role: initial?.role ?? '',
      // One document field to start with, or the template's own documents.
      documents: initial?.forms.length ? initial.forms.map((name) => documentField(name)) : [documentField()],
      // None to start with: most checklists have no optional documents.
      optional: (initial?.optionalForms ?? []).map((name) => documentField(name)),
      keyDateKinds: initial?.keyDateKinds ?? [],
    },
    validate: schemaResolver(templateFormSchema, { sync: true }),
  });

  const types = useTemplateTypes();
  const conditional = useConditionalItems(initial?.conditionalForms, issues);
  /** The whole input checked by the contract: the conditional items' problems shown on them. */
  const checked = (values: TemplateFormValues) => {
    const result = templateInput.safeParse({
      ...toTemplateInput(values),
      conditionalForms: conditionalFormsOf(conditional.items),
    });
    conditional.setErrors(result.success ? {} : conditionalErrorsOf(result.error.issues));
    return result;
  };
  const submit = form.onSubmit(
    (values) => {
      const result = checked(values);
      if (result.success) onSubmit(result.data);
    },
    () => checked(form.getValues()),
  );
  const documents = form.getValues().documents;
  const listError = form.errors.documents;
  const optional = form.getValues().optional;
  const optionalError = form.errors.optional;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TypeField
          key={form.key('type')}
          types={types}
          defaultValue={form.getValues().type}
          error={form.errors.type}
          // The field holds its own text: no remount (forceUpdate) that would drop its focus.
          onChange={(type) => form.setFieldValue('type', type, { forceUpdate: false })}
        />
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
        <Stack gap="xs" role="group" aria-label="Optional documents">
          <Text size="sm" fw={500}>
            Optional documents
          </Text>
          <Text size="xs" c="dimmed">
            Collected like the others, but never holding a transaction back from being compliant.
          </Text>
          {optional.map((document, index) => (
            <Group key={document.key} align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                label={`Optional document ${index + 1}`}
                withAsterisk
                style={{ flex: 1 }}
                key={form.key(`optional.${index}.name`)}
                {...form.getInputProps(`optional.${index}.name`)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={`Remove optional document ${index + 1}`}
                onClick={() => form.removeListItem('optional', index)}
              >
                <IconTrash size={18} aria-hidden="true" />
              </ActionIcon>
            </Group>
          ))}
          {optionalError && (
            <Text c="red" size="sm" role="alert">
              {optionalError}
            </Text>
          )}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => form.insertListItem('optional', documentField())}
            >
              Add optional document
            </Button>
          </Group>
        </Stack>
        <ConditionalItemsEditor
          items={conditional.items}
          errors={conditional.errors}
          onChange={conditional.change}
        />
        <MultiSelect
          label="Key dates"
          description="Dates each new transaction of this type starts with, to be filled in on its page"
          placeholder={form.getValues().keyDateKinds.length ? undefined : 'None'}
          data={KEY_DATE_OPTIONS}
          clearable
          hidePickedOptions
          comboboxProps={{ withinPortal: false }}
          key={form.key('keyDateKinds')}
          {...form.getInputProps('keyDateKinds')}
        />
        <DialogActions pending={submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
