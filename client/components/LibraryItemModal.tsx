import { Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { alerts } from '../../shared/messages';
import { type LibraryItem, libraryFormInput, tutorialInput } from '../../shared/schemas/libraries';
import { DialogActions } from './DialogActions';
import { type EditDialogProps, FormModal } from './FormModal';
import { LibraryFileField } from './LibraryFileField';

export type LibraryItemValues = { name: string; link: string };

/** A form's link is the key of an uploaded file; a tutorial's, an http(s) address typed in. */
export type LibraryLinkField = 'file' | 'url';

const SCHEMAS = { file: libraryFormInput, url: tutorialInput } as const;

type LibraryItemModalProps = EditDialogProps<LibraryItem, LibraryItemValues> & {
  linkField: LibraryLinkField;
};

/** The add and update dialog of a library item: a name and a link. */
export function LibraryItemModal({ opened, title, onClose, ...form }: LibraryItemModalProps) {
  return (
    <FormModal opened={opened} title={title} onClose={onClose}>
      <LibraryItemForm {...form} onCancel={onClose} />
    </FormModal>
  );
}

type LibraryItemFormProps = Omit<LibraryItemModalProps, 'opened' | 'title' | 'onClose'> & {
  onCancel: () => void;
};

function LibraryItemForm({ linkField, initial, submitting, onSubmit, onCancel }: LibraryItemFormProps) {
  const schema = SCHEMAS[linkField];
  const form = useForm<LibraryItemValues>({
    mode: 'uncontrolled',
    initialValues: { name: initial?.name ?? '', link: initial?.link ?? '' },
    validate: schemaResolver(schema, { sync: true }),
  });
  const [uploading, setUploading] = useState(false);

  const submit = form.onSubmit(
    (values) => onSubmit(schema.parse(values)),
    (errors) => {
      // A missing file is also said with an alert, besides the field's message.
      if (linkField === 'file' && errors.link) window.alert(alerts.pleaseUploadFile);
    },
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Name" withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
        {linkField === 'file' ? (
          <LibraryFileField
            current={initial?.link}
            error={form.errors.link}
            disabled={submitting}
            onUploaded={(key) => {
              form.setFieldValue('link', key);
              form.clearFieldError('link');
            }}
            onUploadingChange={setUploading}
          />
        ) : (
          <TextInput
            label="Link"
            type="url"
            placeholder="https://"
            withAsterisk
            key={form.key('link')}
            {...form.getInputProps('link')}
          />
        )}
        <DialogActions pending={submitting} submitDisabled={uploading} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
