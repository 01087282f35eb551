import { NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { officeMessages } from '../../../shared/messages';
import { OFFICE_DEFAULTS, type Office } from '../../../shared/schemas/offices';
import { httpStatusOf, serverMessageOf } from '../../api/errors';
import { notifyError } from '../../notify';
import { useTRPC } from '../../trpc';
import { DialogActions } from '../DialogActions';
import { FormModal } from '../FormModal';

type OfficeValues = { name: string; reviewTargetHours: number | string; retentionYears: number | string };

/** Whole numbers within the server's bounds, said in words a broker reads. */
const wholeBetween = (min: number, max: number, what: string) => (value: number | string) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? null
    : `${what} must be a whole number from ${min} to ${max}`;

type OfficeFormModalProps = {
  opened: boolean;
  /** The office being edited, or nothing to add one. */
  office?: Office;
  onClose: () => void;
  onSaved: (office: Office) => void;
};

/** Add office / Edit office: its name, review target and how long its records are kept. */
export function OfficeFormModal({ opened, office, onClose, onSaved }: OfficeFormModalProps) {
  return (
    <FormModal opened={opened} title={office ? 'Edit office' : 'Add office'} onClose={onClose}>
      <OfficeForm office={office} onCancel={onClose} onSaved={onSaved} />
    </FormModal>
  );
}

function OfficeForm({
  office,
  onCancel,
  onSaved,
}: {
  office?: Office;
  onCancel: () => void;
  onSaved: (office: Office) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.offices.create.mutationOptions());
  const update = useMutation(trpc.offices.update.mutationOptions());
  const form = useForm<OfficeValues>({
    mode: 'uncontrolled',
    initialValues: {
      name: office?.name ?? '',
      reviewTargetHours: office?.reviewTargetHours ?? OFFICE_DEFAULTS.reviewTargetHours,
      retentionYears: office?.retentionYears ?? OFFICE_DEFAULTS.retentionYears,
    },
    validate: {
      name: (value) => (value.trim() ? null : officeMessages.nameRequired),
      reviewTargetHours: wholeBetween(1, 2160, 'Review target'),
      retentionYears: wholeBetween(1, 100, 'Retention'),
    },
  });

  const submit = form.onSubmit((values) => {
    const fields = {
      name: values.name.trim(),
      reviewTargetHours: Number(values.reviewTargetHours),
      retentionYears: Number(values.retentionYears),
    };
    const options = {
      onSuccess: onSaved,
      // A name another office has is the name field's error; anything else is a toast.
      onError: (failure: unknown) => {
        if (httpStatusOf(failure) === 409) form.setFieldError('name', serverMessageOf(failure));
        else notifyError(serverMessageOf(failure));
      },
    };
    if (office) update.mutate({ id: office._id, ...fields }, options);
    else create.mutate(fields, options);
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          withAsterisk
          data-autofocus
          maxLength={100}
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <NumberInput
          label="Review target (hours)"
          description="A document waiting longer than this is overdue."
          min={1}
          max={2160}
          allowDecimal={false}
          key={form.key('reviewTargetHours')}
          {...form.getInputProps('reviewTargetHours')}
        />
        <NumberInput
          label="Retention (years)"
          description="How long the office's records are kept."
          min={1}
          max={100}
          allowDecimal={false}
          key={form.key('retentionYears')}
          {...form.getInputProps('retentionYears')}
        />
        <DialogActions pending={create.isPending || update.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
