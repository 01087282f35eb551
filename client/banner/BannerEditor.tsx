import {
  Box,
  Button,
  ColorInput,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type Konva from 'konva';
import { type ChangeEvent, useEffect, useReducer, useRef, useState } from 'react';
import type { BannerElement } from '../../shared/schemas/banners';
import { serverMessageOf } from '../api/errors';
import { notifyError, notifySuccess } from '../notify';
import { useTRPC } from '../trpc';
import { BannerCanvas } from './BannerCanvas';
import {
  bannerReducer,
  composeFontStyle,
  createCircle,
  createImage,
  createRect,
  createText,
  initialBannerState,
  newElementId,
  type TextElement,
} from './history';

/**
 * The height of the row above the canvas that shows the selection's properties: a labelled input
 * is about 61 px tall, and the row keeps this height whatever is selected, so the canvas never
 * moves when a selection starts or ends. It used to drop by that much on the first click of a
 * double-click, and the second click then landed beside the text instead of opening its editor.
 */
const PROPERTIES_ROW_HEIGHT = 64;

/** A colour field that makes one history step per finished choice, not one per keystroke. */
function ColorField({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: string;
  onCommit: (v: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = (next: string) => {
    if (next && next !== value) onCommit(next);
  };
  return (
    <ColorInput
      label={label}
      value={draft}
      onChange={setDraft}
      onChangeEnd={commit}
      onBlur={() => commit(draft)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(draft);
      }}
      w={180}
    />
  );
}

function TextFormatBar({
  element,
  onFormat,
}: {
  element: TextElement;
  onFormat: (f: Partial<TextElement>) => void;
}) {
  const bold = element.fontStyle.includes('bold');
  const italic = element.fontStyle.includes('italic');
  return (
    <Group align="end" gap="sm" aria-label="Text format" role="group">
      <NumberInput
        label="Font size"
        value={element.fontSize}
        min={1}
        max={1000}
        w={110}
        onChange={(v) => {
          const size = typeof v === 'number' ? v : Number(v);
          if (Number.isFinite(size) && size >= 1 && size <= 1000 && size !== element.fontSize) {
            onFormat({ fontSize: size });
          }
        }}
      />
      <Button
        variant={bold ? 'filled' : 'default'}
        aria-pressed={bold}
        onClick={() => onFormat({ fontStyle: composeFontStyle(!bold, italic) })}
      >
        Bold
      </Button>
      <Button
        variant={italic ? 'filled' : 'default'}
        aria-pressed={italic}
        onClick={() => onFormat({ fontStyle: composeFontStyle(bold, !italic) })}
      >
        Italic
      </Button>
      <Button
        variant={element.underline ? 'filled' : 'default'}
        aria-pressed={element.underline}
        onClick={() => onFormat({ underline: !element.underline })}
      >
        Underline
      </Button>
      <ColorField
        label="Text color"
        value={element.fill ?? 'black'}
        onCommit={(fill) => onFormat({ fill })}
      />
    </Group>
  );
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The banner designer: toolbar, format bar, canvas, save/open and PNG export. */
export function BannerEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(bannerReducer, initialBannerState);
  const stageRef = useRef<Konva.Stage | null>(null);
  const transformerRef = useRef<Konva.Transformer | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [bannerId, setBannerId] = useState<string | null>(null);

  const list = useQuery(trpc.banners.list.queryOptions());
  const save = useMutation(trpc.banners.save.mutationOptions());

  const selected = state.elements.find((el) => el.id === state.selectedId);

  // The Delete key removes the selection, unless the user is typing somewhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Delete') return;
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)))
        return;
      dispatch({ type: 'delete' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const add = (make: (id: string) => BannerElement, type: BannerElement['type']) =>
    dispatch({ type: 'add', element: make(newElementId(type)) });

  const onPickImage = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
      notifyError('Images must be PNG, JPEG, GIF or WebP');
      return;
    }
    const src = await readAsDataUrl(file);
    dispatch({ type: 'add', element: createImage(newElementId('image'), src) });
  };

  const onSave = () => {
    save.mutate(
      { ...(bannerId ? { id: bannerId } : {}), name, elements: state.elements },
      {
        onSuccess: (saved) => {
          setBannerId(saved._id);
          notifySuccess('Banner saved');
          void queryClient.invalidateQueries(trpc.banners.list.pathFilter());
        },
        onError: (error) => notifyError('The banner could not be saved', serverMessageOf(error)),
      },
    );
  };

  const onOpen = async (id: string | null) => {
    if (!id) return;
    try {
      const loaded = await queryClient.fetchQuery({ ...trpc.banners.get.queryOptions({ id }), staleTime: 0 });
      dispatch({ type: 'load', elements: loaded.elements });
      setBannerId(loaded._id);
      setName(loaded.name);
    } catch (error) {
      notifyError('The banner could not be opened', serverMessageOf(error));
    }
  };

  const onNew = () => {
    dispatch({ type: 'load', elements: [] });
    setBannerId(null);
    setName('');
  };

  const onExport = () => {
    const stage = stageRef.current;
    if (!stage) return;
    const transformer = transformerRef.current;
    transformer?.visible(false);
    const url = stage.toDataURL({ pixelRatio: 2, mimeType: 'image/png' });
    transformer?.visible(true);
    const link = document.createElement('a');
    link.href = url;
    link.download = 'banner.png';
    document.body.append(link);
    link.click();
    link.remove();
  };

  return (
    <Stack gap="md">
      <Group gap="xs" role="toolbar" aria-label="Banner tools">
        <Button variant="default" onClick={() => add(createText, 'text')}>
          Text
        </Button>
        <Button variant="default" onClick={() => add(createRect, 'rect')}>
          Rectangle
        </Button>
        <Button variant="default" onClick={() => add(createCircle, 'circle')}>
          Circle
        </Button>
        <Button variant="default" onClick={() => fileRef.current?.click()}>
          Image
        </Button>
        <input
          ref={fileRef}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label="Image file"
          data-testid="banner-image-input"
          hidden
          onChange={onPickImage}
        />
        <Button
          variant="default"
          color="red"
          disabled={!selected}
          onClick={() => dispatch({ type: 'delete' })}
        >
          Delete
        </Button>
        <Button
          variant="default"
          disabled={state.past.length === 0}
          onClick={() => dispatch({ type: 'undo' })}
        >
          Undo
        </Button>
        <Button
          variant="default"
          disabled={state.future.length === 0}
          onClick={() => dispatch({ type: 'redo' })}
        >
          Redo
        </Button>
        <Button variant="light" onClick={onExport}>
          Export PNG
        </Button>
      </Group>

      <Box mih={PROPERTIES_ROW_HEIGHT} data-testid="banner-properties">
        {selected?.type === 'text' ? (
          <TextFormatBar
            key={selected.id}
            element={selected}
            onFormat={(format) => dispatch({ type: 'format', id: selected.id, format })}
          />
        ) : selected?.type === 'rect' || selected?.type === 'circle' ? (
          <ColorField
            key={selected.id}
            label="Fill color"
            value={selected.fill ?? ''}
            onCommit={(fill) => dispatch({ type: 'fill', id: selected.id, fill })}
          />
        ) : (
          <Text size="sm" c="dimmed" pt="lg">
            Select a text to change its font, or a shape to change its colour.
          </Text>
        )}
      </Box>

      <BannerCanvas
        elements={state.elements}
        selectedId={state.selectedId}
        dispatch={dispatch}
        stageRef={stageRef}
        transformerRef={transformerRef}
      />

      <Paper withBorder p="md" radius="md">
        <Group align="end" gap="sm">
          <TextInput
            label="Banner name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={240}
          />
          <Button onClick={onSave} loading={save.isPending} disabled={!name.trim()}>
            Save
          </Button>
          <Select
            label="My banners"
            placeholder={list.data?.length ? 'Open a saved banner' : 'No saved banners yet'}
            data={(list.data ?? []).map((b) => ({ value: b._id, label: b.name }))}
            value={bannerId}
            onChange={(id) => void onOpen(id)}
            w={260}
            allowDeselect={false}
          />
          <Button variant="default" onClick={onNew}>
            New banner
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}
