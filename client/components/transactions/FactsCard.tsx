import { Alert, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { complianceMessages } from '../../../shared/messages';
import {
  FINANCING,
  factsInput,
  PROPERTY_TYPES,
  YEAR_BUILT_MAX,
  YEAR_BUILT_MIN,
} from '../../../shared/schemas/facts';
import type { Transaction } from '../../../shared/schemas/transactions';
import { issuesOf, serverMessageOf } from '../../api/errors';
import { SubmitButton } from '../SubmitButton';
import { DetailCard } from './DetailCard';
import {
  changedFacts,
  checklistChange,
  choiceOptions,
  draftOf,
  errorsByFact,
  type FactErrors,
  type FactsDraft,
  type FactsInput,
  HOA_OPTIONS,
} from './facts-form';

const FINANCING_OPTIONS = choiceOptions(FINANCING);
const PROPERTY_TYPE_OPTIONS = choiceOptions(PROPERTY_TYPES);

type FactsCardProps = {
  transaction: Transaction;
  /** Sends the changed facts through the page's update; resolves to the saved transaction. */
  onSave: (facts: FactsInput) => Promise<Transaction>;
};

/**
 * What is known of the property and the deal, on both detail pages. The checklist follows these
 * facts: a save answers with the transaction, its items added or removed by the template's rules.
 * A closed file shows them only (the server refuses a change until it is reopened).
 */
export function FactsCard({ transaction, onSave }: FactsCardProps) {
  const closed = transaction.closedAt !== null;
  return (
    <DetailCard title="Facts">
      <Text size="sm" c="dimmed">
        What is known of the property and the deal: the checklist asks for the documents they call for.
      </Text>
      {/* Keyed by the facts and the file's state: a saved or refetched change starts the fields afresh. */}
      <FactsForm
        key={`${JSON.stringify(transaction.facts)}-${closed}`}
        transaction={transaction}
        closed={closed}
        onSave={onSave}
      />
    </DetailCard>
  );
}

type FactsFormProps = FactsCardProps & { closed: boolean };

function FactsForm({ transaction, closed, onSave }: FactsFormProps) {
  const [draft, setDraft] = useState(() => draftOf(transaction.facts));
  const [errors, setErrors] = useState<FactErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const changed = changedFacts(transaction.facts, draft);
  const nothingChanged = Object.keys(changed).length === 0;

  const change = (patch: Partial<FactsDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    const cleared = Object.keys(patch).map((key) => (key === 'salePrice' ? 'salePriceCents' : key));
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([name]) => !cleared.includes(name))),
    );
    setFailure(null);
  };

  const refused = (issues: ReadonlyArray<{ path: string; message: string }>, fallback: string) => {
    const { fields, other } = errorsByFact(issues);
    setErrors(fields);
    setFailure(other[0] ?? (Object.keys(fields).length ? null : fallback));
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = factsInput.safeParse(changed);
    if (!parsed.success) {
      refused(
        parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
        parsed.error.issues[0]?.message ?? '',
      );
      return;
    }
    setPending(true);
    try {
      const saved = await onSave(parsed.data);
      const words = checklistChange(transaction, saved);
      notifications.show({
        color: 'green',
        title: 'Facts saved',
        message: words ?? 'The checklist is unchanged',
      });
    } catch (error) {
      refused(issuesOf(error), serverMessageOf(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={save} noValidate>
      {/* A disabled fieldset disables every field and the button at once. */}
      <fieldset disabled={closed} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          {closed && (
            <Text size="sm" c="dimmed">
              {complianceMessages.closedFacts}
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NumberInput
              label="Sale price"
              placeholder="Not known"
              prefix="$"
              thousandSeparator=","
              decimalScale={2}
              allowNegative={false}
              hideControls
              value={draft.salePrice}
              error={errors.salePriceCents}
              onChange={(salePrice) => change({ salePrice })}
            />
            <NumberInput
              label="Year built"
              placeholder="Not known"
              allowDecimal={false}
              allowNegative={false}
              min={YEAR_BUILT_MIN}
              max={YEAR_BUILT_MAX}
              clampBehavior="none"
              hideControls
              value={draft.yearBuilt}
              error={errors.yearBuilt}
              onChange={(yearBuilt) => change({ yearBuilt })}
            />
            <NativeSelect
              label="Financing"
              data={FINANCING_OPTIONS}
              value={draft.financing}
              error={errors.financing}
              onChange={(event) => change({ financing: event.currentTarget.value })}
            />
            <NativeSelect
              label="Property type"
              data={PROPERTY_TYPE_OPTIONS}
              value={draft.propertyType}
              error={errors.propertyType}
              onChange={(event) => change({ propertyType: event.currentTarget.value })}
            />
            <NativeSelect
              label="HOA"
              description="Is the property in a homeowners association?"
              data={HOA_OPTIONS}
              value={draft.hoa}
              error={errors.hoa}
              onChange={(event) => change({ hoa: event.currentTarget.value as FactsDraft['hoa'] })}
            />
          </SimpleGrid>
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          {!closed && (
            <Group justify="flex-end">
              <SubmitButton pending={pending} disabled={nothingChanged}>
                Save facts
              </SubmitButton>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
