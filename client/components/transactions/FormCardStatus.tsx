import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import type { TransactionForm } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { FORM_STATUS_COLOR, FORM_STATUS_LABEL, itemState } from './compliance';
import { CurrentFileWarnings } from './ItemUploads';

const WAIVER_LABEL = { requested: 'Waiver requested', approved: 'Waived', denied: 'Waiver denied' } as const;

type FormCardStatusProps = {
  form: TransactionForm;
  /** Right after an upload its own notice says what the checks found; the item's line would repeat it. */
  warningsShownByUpload: boolean;
};

/**
 * Where a checklist item stands: its name, required or optional, its review status, the current
 * file, what the checks found in it, and any waiver. Its parts sit in the card's own stack.
 */
export function FormCardStatus({ form, warningsShownByUpload }: FormCardStatusProps) {
  const hasFile = form.version > 0;
  return (
    <>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {form.label}
          </Title>
          <Text size="sm" data-testid="form-state">
            {`${form.required ? 'Required' : 'Optional'} · ${itemState(form)}`}
          </Text>
          {form.requiredBecause && (
            // A template's rule put the item here: the facts that call for it.
            <Text size="sm" data-testid="form-required-because" style={{ overflowWrap: 'anywhere' }}>
              {`Required because ${form.requiredBecause}`}
            </Text>
          )}
        </Stack>
        <Badge color={FORM_STATUS_COLOR[form.status]} variant="light" tt="none" data-testid="form-status">
          {FORM_STATUS_LABEL[form.status]}
        </Badge>
      </Group>

      {hasFile && (
        <Text size="xs" c="dimmed" data-testid="form-file" style={{ overflowWrap: 'anywhere' }}>
          {[
            form.fileName ?? 'File',
            form.submittedAt ? formatDateTime(form.submittedAt) : null,
            `Version ${form.version}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      )}

      {hasFile && !warningsShownByUpload && (
        <CurrentFileWarnings version={form.version} warnings={form.warnings} />
      )}

      {form.waiver && (
        <Text size="sm" data-testid="form-waiver" style={{ overflowWrap: 'anywhere' }}>
          {`${WAIVER_LABEL[form.waiver.status]}: ${form.waiver.reason}`}
        </Text>
      )}
    </>
  );
}
