import {
  ActionIcon,
  Group,
  MultiSelect,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  TagsInput,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { FACTS, type FactName, type RuleOp } from '../../../shared/schemas/facts';
import {
  type ConditionDraft,
  choiceOptions,
  FACT_OPTIONS,
  opOptions,
  withFact,
  withOp,
} from './conditional-items';

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

type ConditionFieldsProps = {
  condition: ConditionDraft;
  /** 1-based, for the names of its group and its remove button. */
  number: number;
  /** Messages by the part they name: fact, op, value. */
  errors: { fact?: string; op?: string; value?: string };
  removable: boolean;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
};

/**
 * One condition of a conditional item: a fact, an operator its kind allows, and a value of the
 * fact's type (dollars for money, a choice, several for "in", yes or no for the HOA).
 */
export function ConditionFields({
  condition,
  number,
  errors,
  removable,
  onChange,
  onRemove,
}: ConditionFieldsProps) {
  return (
    <Stack gap="xs" role="group" aria-label={`Condition ${number}`}>
      <Group align="flex-start" wrap="nowrap" gap="xs">
        <SimpleGrid cols={2} spacing="xs" style={{ flex: 1, minWidth: 0 }}>
          <NativeSelect
            label="Fact"
            data={FACT_OPTIONS}
            value={condition.fact}
            error={errors.fact}
            onChange={(event) => onChange(withFact(condition, event.currentTarget.value as FactName))}
          />
          <NativeSelect
            label="Operator"
            data={opOptions(condition.fact)}
            value={condition.op}
            error={errors.op}
            onChange={(event) => onChange(withOp(condition, event.currentTarget.value as RuleOp))}
          />
        </SimpleGrid>
        {removable && (
          <ActionIcon
            variant="subtle"
            color="red"
            mt={28}
            aria-label={`Remove condition ${number}`}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        )}
      </Group>
      <ValueField
        condition={condition}
        error={errors.value}
        onChange={(value) => onChange({ ...condition, value })}
      />
    </Stack>
  );
}

type ValueFieldProps = {
  condition: ConditionDraft;
  error: string | undefined;
  onChange: (value: ConditionDraft['value']) => void;
};

function ValueField({ condition, error, onChange }: ValueFieldProps) {
  const { fact, op, value } = condition;
  const kind = FACTS[fact].kind;
  const common = { label: 'Value', error, withAsterisk: true };
  if (op === 'in' && kind === 'choice')
    return (
      <MultiSelect
        {...common}
        data={choiceOptions(fact)}
        value={value as string[]}
        hidePickedOptions
        comboboxProps={{ withinPortal: false }}
        onChange={onChange}
      />
    );
  if (op === 'in')
    return (
      <TagsInput
        {...common}
        description={kind === 'money' ? 'Amounts in dollars; Enter after each' : 'Years; Enter after each'}
        value={value as string[]}
        splitChars={[',', ' ']}
        acceptValueOnBlur
        comboboxProps={{ withinPortal: false }}
        onChange={onChange}
      />
    );
  if (kind === 'choice' || kind === 'boolean')
    return (
      <NativeSelect
        {...common}
        data={kind === 'boolean' ? YES_NO : [{ value: '', label: 'Choose...' }, ...choiceOptions(fact)]}
        value={value as string}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  return (
    <NumberInput
      {...common}
      description={kind === 'money' ? 'In dollars' : undefined}
      prefix={kind === 'money' ? '$' : undefined}
      thousandSeparator={kind === 'money' ? ',' : undefined}
      decimalScale={kind === 'money' ? 2 : 0}
      allowNegative={false}
      hideControls
      value={value as number | string}
      onChange={onChange}
    />
  );
}
