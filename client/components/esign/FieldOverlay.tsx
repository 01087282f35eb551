import { Box, Text } from '@mantine/core';
import type { SigningView } from '../../../shared/schemas/esign';
import { fieldBoxStyle } from './placement';

export type SigningField = SigningView['fields'][number];

const KIND_NAMES: Record<SigningField['kind'], string> = {
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  text: 'Text',
};

/** Each field's name on screen, "Signature 1", "Text 2": numbered by kind, in page order. */
export function fieldLabels(fields: readonly SigningField[]): Map<string, string> {
  const counts = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const field of fields) {
    const count = (counts.get(field.kind) ?? 0) + 1;
    counts.set(field.kind, count);
    labels.set(field._id, `${KIND_NAMES[field.kind]} ${count}`);
  }
  return labels;
}

type FieldOverlayProps = {
  fields: readonly SigningField[];
  labels: Map<string, string>;
  pageNumber: number;
  /** CSS pixels per PDF point of the page as drawn. */
  scale: number;
  /** The fields filled in so far. */
  filled: ReadonlySet<string>;
};

/**
 * The signer's fields of one page as boxes over the drawn page: where each will go, by the name
 * the form below gives it. Decoration for the eye (the form is where they are filled), so hidden
 * from screen readers, which read the same names in the form.
 */
export function FieldOverlay({ fields, labels, pageNumber, scale, filled }: FieldOverlayProps) {
  return (
    <Box aria-hidden="true" pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
      {fields
        .filter((field) => field.page === pageNumber)
        .map((field) => {
          const done = filled.has(field._id);
          return (
            <Box
              key={field._id}
              data-testid={`field-box-${field._id}`}
              pos="absolute"
              left={field.x * scale}
              top={field.y * scale}
              w={field.width * scale}
              h={field.height * scale}
              style={fieldBoxStyle(done ? 'green' : 'yellow')}
            >
              <Text size="10px" lh={1.1} px={2} c="black" truncate>
                {labels.get(field._id)}
              </Text>
            </Box>
          );
        })}
    </Box>
  );
}
