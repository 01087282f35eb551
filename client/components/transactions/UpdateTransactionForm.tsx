import { Checkbox, Group, Stack, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useId } from 'react';
import { z } from 'zod';
import { addressFields, type Transaction } from '../../../shared/schemas/transactions';
import { SubmitButton } from '../SubmitButton';
import { AddressInputs } from './AddressInputs';

/** The address fields with the product's messages, plus the admin's three flags. */
const updateSchema = addressFields.extend({
  isTransactionCoordinator: z.boolean(),
  isTitleReport: z.boolean(),
  isNaturalHazardDisclosure: z.boolean(),
});
export type UpdateTransactionValues = z.infer<typeof updateSchema>;

const FLAGS = [
  ['isTransactionCoordinator', 'Transaction Coordinator'],
  ['isTitleReport', 'Title Report'],
  ['isNaturalHazardDisclosure', 'Natural Hazard Disclosure'],
] as const;

type UpdateTransactionFormProps = {
  transaction: Transaction;
  /** The admin page shows the three checkboxes; the agent's page leaves them out. */
  withFlags?: boolean;
  submitting: boolean;
  /** A closed transaction's address cannot change (the agent's page). */
  disabled?: boolean;
  onSubmit: (values: UpdateTransactionValues) => void;
};

/**
 * The 'Update Transaction' form of both detail pages. Prefilled once from the
 * transaction it mounts with: a refetch (after a comment, say) leaves what the user typed alone.
 */
export function UpdateTransactionForm({
  transaction,
  withFlags = false,
  submitting,
  disabled = false,
  onSubmit,
}: UpdateTransactionFormProps) {
  const headingId = useId();
  const form = useForm<UpdateTransactionValues>({
    mode: 'uncontrolled',
    initialValues: {
      streetAddress: transaction.streetAddress,
      city: transaction.city,
      state: transaction.state,
      zip: transaction.zip,
      isTransactionCoordinator: transaction.isTransactionCoordinator,
      isTitleReport: transaction.isTitleReport,
      isNaturalHazardDisclosure: transaction.isNaturalHazardDisclosure,
    },
    validate: schemaResolver(updateSchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => onSubmit(updateSchema.parse(values)));

  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} mb="sm">
        Update Transaction
      </Title>
      <form onSubmit={submit} noValidate>
        {/* A disabled fieldset disables every field and the button at once. */}
        <fieldset disabled={disabled} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="md">
            <AddressInputs form={form} />
            {withFlags && (
              <Stack gap="xs">
                {FLAGS.map(([name, label]) => (
                  <Checkbox
                    key={form.key(name)}
                    label={label}
                    {...form.getInputProps(name, { type: 'checkbox' })}
                  />
                ))}
              </Stack>
            )}
            <Group justify="flex-end">
              <SubmitButton pending={submitting}>Submit</SubmitButton>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </section>
  );
}
