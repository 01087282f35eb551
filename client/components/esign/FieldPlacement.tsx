import { Button, Group, Loader, NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useRef } from 'react';
import { FIELD_KINDS, type FieldKind } from '../../../shared/schemas/esign';
import { FieldPlacer } from './FieldPlacer';
import { KIND_LABELS, type PageSize, signerColor } from './placement';
import type { SignatureDraft } from './useSignatureDraft';

// pdf.js arrives with the dialog's document, not with the transaction page.
const PdfViewer = lazy(() => import('../review/PdfViewer'));

type FieldPlacementProps = { draft: SignatureDraft; url: string; label: string };

const isKind = (value: string): value is FieldKind => (FIELD_KINDS as readonly string[]).includes(value);

/**
 * Where each signer signs: choose the signer and the kind of field, then click or tap the page
 * (or use "Add a field to this page" and the arrow keys); the placed fields are listed under the
 * document with a way to remove each.
 */
export function FieldPlacement({ draft, url, label }: FieldPlacementProps) {
  const names = draft.signers.map((signer, index) => signer.name.trim() || `Signer ${index + 1}`);
  /** The page on screen and its size, for the keyboard's way of adding a field. */
  const shown = useRef<{ page: number; size: PageSize } | null>(null);

  const addToShownPage = () => {
    const current = shown.current;
    if (!current) return;
    draft.place(current.page, { x: current.size.width / 2, y: current.size.height / 2 }, current.size);
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Field for"
          value={String(draft.placingSigner)}
          onChange={(event) => draft.setPlacingSigner(Number(event.currentTarget.value))}
          data={names.map((name, index) => ({ value: String(index), label: name }))}
          style={{ flex: '1 1 10rem' }}
          leftSection={
            <span
              aria-hidden="true"
              style={{
                width: 10,
                height: 10,
                borderRadius: 2,
                background: `var(--mantine-color-${signerColor(draft.placingSigner)}-6)`,
              }}
            />
          }
        />
        <SegmentedControl
          aria-label="Kind of field"
          value={draft.placingKind}
          onChange={(value) => isKind(value) && draft.setPlacingKind(value)}
          data={FIELD_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
        />
      </Group>
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          Click or tap the page to place the field; drag a field to move it.
        </Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          onClick={addToShownPage}
        >
          Add a field to this page
        </Button>
      </Group>
      <Suspense fallback={<Loader size="sm" aria-label="Loading the document" />}>
        <PdfViewer
          url={url}
          label={label}
          overlay={({ pageNumber, scale, size }) => {
            shown.current = { page: pageNumber, size };
            return (
              <FieldPlacer
                fields={draft.fields}
                signerNames={names}
                pageNumber={pageNumber}
                scale={scale}
                size={size}
                onPlace={(point, pageSize) => draft.place(pageNumber, point, pageSize)}
                onMove={draft.move}
                onRemove={draft.removeField}
              />
            );
          }}
        />
      </Suspense>
      <PlacedFieldList draft={draft} names={names} />
    </Stack>
  );
}

function PlacedFieldList({ draft, names }: { draft: SignatureDraft; names: readonly string[] }) {
  if (draft.fields.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No field placed yet: every signer needs at least one signature field.
      </Text>
    );
  const sorted = [...draft.fields].sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
  return (
    <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Placed fields">
      {sorted.map((field) => {
        const name = `${KIND_LABELS[field.kind]} for ${names[field.signer]}, page ${field.page}`;
        return (
          <Group key={field.key} component="li" gap="xs" justify="space-between" wrap="nowrap">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <span
                aria-hidden="true"
                style={{
                  display: 'inline-block',
                  width: 10,
                  height: 10,
                  marginRight: 6,
                  borderRadius: 2,
                  background: `var(--mantine-color-${signerColor(field.signer)}-6)`,
                }}
              />
              {name}
            </Text>
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              aria-label={`Remove ${name}`}
              onClick={() => draft.removeField(field.key)}
            >
              Remove
            </Button>
          </Group>
        );
      })}
    </Stack>
  );
}
