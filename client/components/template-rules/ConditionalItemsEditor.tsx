import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { MAX_CONDITIONAL_FORMS } from '../../../shared/schemas/facts';
import { ConditionFields } from './ConditionFields';
import { type ConditionDraft, type ItemDraft, newCondition, newItem, previewOf } from './conditional-items';

/** At most this many conditions to an item (the contract's limit). */
const MAX_CONDITIONS = 10;

type ConditionalItemsEditorProps = {
  items: ItemDraft[];
  /**
   * Messages by their path under `conditionalForms` ('0.label', '0.when.1.value', '0.when'),
   * the client's checks or the server's; '' is the list as a whole.
   */
  errors: Record<string, string>;
  onChange: (items: ItemDraft[]) => void;
};

/**
 * A template's conditional items: documents its checklists ask for only while a transaction's
 * facts meet every condition. Each shows its rule in words as it is being written.
 */
export function ConditionalItemsEditor({ items, errors, onChange }: ConditionalItemsEditorProps) {
  const replace = (index: number, item: ItemDraft) =>
    onChange(items.map((current, at) => (at === index ? item : current)));
  return (
    <Stack gap="xs" role="group" aria-label="Conditional documents">
      <Text size="sm" fw={500}>
        Conditional documents
      </Text>
      <Text size="xs" c="dimmed">
        Asked for, and required, only while the transaction's facts meet every condition.
      </Text>
      {items.map((item, index) => (
        <ConditionalItem
          key={item.key}
          item={item}
          number={index + 1}
          errors={errors}
          path={String(index)}
          onChange={(changed) => replace(index, changed)}
          onRemove={() => onChange(items.filter((_, at) => at !== index))}
        />
      ))}
      {errors[''] && (
        <Text c="red" size="sm" role="alert">
          {errors['']}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          disabled={items.length >= MAX_CONDITIONAL_FORMS}
          onClick={() => onChange([...items, newItem()])}
        >
          Add conditional document
        </Button>
      </Group>
    </Stack>
  );
}

type ConditionalItemProps = {
  item: ItemDraft;
  number: number;
  errors: Record<string, string>;
  /** The item's index, as the errors' paths begin. */
  path: string;
  onChange: (item: ItemDraft) => void;
  onRemove: () => void;
};

function ConditionalItem({ item, number, errors, path, onChange, onRemove }: ConditionalItemProps) {
  const preview = previewOf(item);
  const setCondition = (index: number, condition: ConditionDraft) =>
    onChange({ ...item, when: item.when.map((current, at) => (at === index ? condition : current)) });
  const whenError = errors[`${path}.when`];
  return (
    <Fieldset legend={`Conditional document ${number}`} variant="filled" p="sm">
      <Stack gap="sm">
        <Group align="flex-start" wrap="nowrap" gap="xs">
          <TextInput
            label="Document name"
            withAsterisk
            style={{ flex: 1 }}
            value={item.label}
            error={errors[`${path}.label`]}
            onChange={(event) => onChange({ ...item, label: event.currentTarget.value })}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={28}
            aria-label={`Remove conditional document ${number}`}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
        {item.when.map((condition, index) => (
          <ConditionFields
            key={condition.key}
            condition={condition}
            number={index + 1}
            errors={{
              fact: errors[`${path}.when.${index}.fact`],
              op: errors[`${path}.when.${index}.op`],
              value: errors[`${path}.when.${index}.value`],
            }}
            removable={item.when.length > 1}
            onChange={(changed) => setCondition(index, changed)}
            onRemove={() => onChange({ ...item, when: item.when.filter((_, at) => at !== index) })}
          />
        ))}
        {whenError && (
          <Text c="red" size="sm" role="alert">
            {whenError}
          </Text>
        )}
        <Group justify="space-between" align="center" gap="xs">
          <Text size="sm" data-testid="rule-preview" aria-live="polite" style={{ flex: 1, minWidth: 0 }}>
            {preview ?? 'Complete each condition to see the rule.'}
          </Text>
          <Button
            variant="subtle"
            size="xs"
            disabled={item.when.length >= MAX_CONDITIONS}
            onClick={() => onChange({ ...item, when: [...item.when, newCondition()] })}
          >
            Add condition
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
