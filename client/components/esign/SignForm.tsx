import { Alert, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { esignPageMessages } from '../../../shared/signing-page-messages';
import { serverMessageOf } from '../../api/errors';
import type { SigningField } from './FieldOverlay';
import { SignaturePad } from './SignaturePad';
import { submitSignature } from './sign-api';

type SignFormProps = {
  token: string;
  signerName: string;
  fields: readonly SigningField[];
  labels: Map<string, string>;
  /** Every value as it changes, so the boxes over the page show what is filled. */
  onValuesChange: (values: Record<string, string>) => void;
  onSigned: () => void;
};

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase())
    .join('');

/**
 * The signer's fields, the consent and the Sign button. Date fields are the portal's to fill on
 * the signing day, so they are shown and never sent. What the server refuses is shown above the
 * button, in its words.
 */
export function SignForm({ token, signerName, fields, labels, onValuesChange, onSigned }: SignFormProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [consent, setConsent] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const sign = useMutation({
    mutationFn: (sent: Array<{ fieldId: string; value: string }>) => submitSignature(token, consent, sent),
    onSuccess: onSigned,
    onError: (error) => setProblem(serverMessageOf(error)),
  });

  const setValue = (fieldId: string, value: string) => {
    const next = { ...values, [fieldId]: value };
    setValues(next);
    onValuesChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // The server checks the consent and that every field is filled, and says what is missing.
    sign.mutate(
      fields
        .filter((field) => field.kind !== 'date')
        .map((field) => ({ fieldId: field._id, value: values[field._id] ?? '' })),
    );
  };

  return (
    <form onSubmit={submit} aria-label="Sign the document" noValidate>
      <Stack gap="md">
        {fields.map((field) => {
          const label = labels.get(field._id) ?? field.kind;
          const where = `page ${field.page}`;
          if (field.kind === 'date')
            return (
              <Text key={field._id} size="sm">
                <Text span fw={600}>
                  {label} ({where}):
                </Text>{' '}
                {esignPageMessages.dateFilledIn}
              </Text>
            );
          if (field.kind === 'text')
            return (
              <TextInput
                key={field._id}
                label={`${label} (${where})`}
                required
                maxLength={200}
                value={values[field._id] ?? ''}
                onChange={(event) => setValue(field._id, event.currentTarget.value)}
              />
            );
          return (
            <SignaturePad
              key={field._id}
              label={`${label} (${where})`}
              suggestion={field.kind === 'initials' ? initialsOf(signerName) : signerName}
              onChange={(value) => setValue(field._id, value)}
            />
          );
        })}
        <Checkbox
          checked={consent}
          onChange={(event) => setConsent(event.currentTarget.checked)}
          label={esignPageMessages.consent}
        />
        {problem && (
          <Alert color="red" role="alert" p="xs">
            {problem}
          </Alert>
        )}
        <Button type="submit" loading={sign.isPending} fullWidth>
          Sign
        </Button>
      </Stack>
    </form>
  );
}
