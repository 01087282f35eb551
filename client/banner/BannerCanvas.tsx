import type Konva from 'konva';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Circle, Image as KonvaImage, Layer, Rect, Stage, Text, Transformer } from 'react-konva';
import type { BannerElement } from '../../shared/schemas/banners';
import { type BannerAction, MIN_SIZE, type TextElement, type Transform } from './history';

/**
 * The Konva stage. Only this folder imports konva, and only the lazily loaded Banner
 * page imports this folder, so the canvas library stays out of the main bundle.
 */

const STAGE_HEIGHT = 550;

/** Read-only hook for browser tests: the live Konva stage. */
type TestWindow = Window & { __bannerStage?: Konva.Stage };

function useImage(src: string): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>();
  useEffect(() => {
    const img = new window.Image();
    img.onload = () => setImage(img);
    img.src = src;
    return () => {
      img.onload = null;
    };
  }, [src]);
  return image;
}

/** What every element's node takes: its id, where it stands, and the handlers of the editor. */
type NodeProps = Transform & {
  id: string;
  name: string;
  draggable: boolean;
  onMouseDown: () => void;
  onTap: () => void;
  onDragStart: () => void;
  onDragEnd: (e: Konva.KonvaEventObject<DragEvent>) => void;
  onTransformEnd: (e: Konva.KonvaEventObject<Event>) => void;
};

function ImageNode({
  element,
  node,
}: {
  element: Extract<BannerElement, { type: 'image' }>;
  node: NodeProps;
}) {
  const image = useImage(element.src);
  return <KonvaImage {...node} image={image} width={element.width} height={element.height} />;
}

type Editing = {
  id: string;
  value: string;
};

export type BannerCanvasProps = {
  elements: BannerElement[];
  selectedId: string | null;
  dispatch: (action: BannerAction) => void;
  stageRef: React.RefObject<Konva.Stage | null>;
  transformerRef: React.RefObject<Konva.Transformer | null>;
};

export function BannerCanvas({
  elements,
  selectedId,
  dispatch,
  stageRef,
  transformerRef,
}: BannerCanvasProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [editing, setEditing] = useState<Editing | null>(null);
  /** Set once the open editor has committed or cancelled, so a late blur does nothing. */
  const closed = useRef(false);

  // As wide as its container, following resizes.
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const measure = () => setWidth(Math.floor(container.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(container);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    (window as TestWindow).__bannerStage = stageRef.current ?? undefined;
  });
  useEffect(
    () => () => {
      (window as TestWindow).__bannerStage = undefined;
    },
    [],
  );

  // After every render: the transformer follows the selection (and the node a re-render may have
  // replaced), and the layer is drawn at once, its hit graph included. Left to Konva, the drawing
  // waits for the next animation frame, which a busy machine delivers late: a click in between
  // missed a shape that had just appeared, moved, or come back from under its text editor (it
  // landed on the empty stage and ended the selection instead).
  useLayoutEffect(() => {
    const transformer = transformerRef.current;
    const stage = stageRef.current;
    if (!transformer || !stage) return;
    const node = selectedId && !editing ? stage.findOne(`#${selectedId}`) : undefined;
    transformer.nodes(node ? [node] : []);
    transformer.getLayer()?.draw();
  });

  const nodePropsFor = (element: BannerElement): NodeProps => ({
    id: element.id,
    x: element.x,
    y: element.y,
    rotation: element.rotation,
    scaleX: element.scaleX,
    scaleY: element.scaleY,
    name: 'banner-element',
    draggable: element.draggable,
    onMouseDown: () => dispatch({ type: 'select', id: element.id }),
    onTap: () => dispatch({ type: 'select', id: element.id }),
    onDragStart: () => dispatch({ type: 'select', id: element.id }),
    onDragEnd: (e) => dispatch({ type: 'move', id: element.id, x: e.target.x(), y: e.target.y() }),
    onTransformEnd: (e) => {
      const node = e.target;
      dispatch({
        type: 'transform',
        id: element.id,
        transform: {
          x: node.x(),
          y: node.y(),
          rotation: node.rotation(),
          scaleX: node.scaleX(),
          scaleY: node.scaleY(),
        },
      });
    },
  });

  const startEditing = (element: TextElement) => {
    closed.current = false;
    setEditing({ id: element.id, value: element.text });
  };

  const finishEditing = () => {
    if (!editing || closed.current) return;
    closed.current = true;
    const element = elements.find((el) => el.id === editing.id);
    if (element?.type === 'text' && element.text !== editing.value) {
      dispatch({ type: 'editText', id: editing.id, text: editing.value });
    }
    setEditing(null);
  };

  const onEditorKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      finishEditing();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closed.current = true;
      setEditing(null);
    }
  };

  const editedElement = editing ? elements.find((el) => el.id === editing.id) : undefined;
  const editedNode = editing ? stageRef.current?.findOne(`#${editing.id}`) : undefined;
  const editorBox = editedNode?.getClientRect({ relativeTo: stageRef.current ?? undefined });

  return (
    <div
      ref={containerRef}
      data-testid="banner-canvas"
      style={{
        position: 'relative',
        width: '100%',
        height: STAGE_HEIGHT,
        border: '1px solid var(--mantine-color-gray-4)',
        background: 'white',
        overflow: 'hidden',
      }}
    >
      {width > 0 && (
        <Stage
          ref={stageRef}
          width={width}
          height={STAGE_HEIGHT}
          onMouseDown={(e) => {
            if (e.target === e.target.getStage()) dispatch({ type: 'select', id: null });
          }}
        >
          <Layer>
            {elements.map((element) => {
              const node = nodePropsFor(element);
              switch (element.type) {
                case 'text':
                  return (
                    <Text
                      key={element.id}
                      {...node}
                      text={element.text}
                      fontSize={element.fontSize}
                      fontStyle={element.fontStyle}
                      textDecoration={element.underline ? 'underline' : ''}
                      fill={element.fill ?? 'black'}
                      visible={editing?.id !== element.id}
                      onDblClick={() => startEditing(element)}
                      onDblTap={() => startEditing(element)}
                    />
                  );
                case 'rect':
                  return (
                    <Rect
                      key={element.id}
                      {...node}
                      width={element.width}
                      height={element.height}
                      fill={element.fill}
                    />
                  );
                case 'circle':
                  return <Circle key={element.id} {...node} radius={element.radius} fill={element.fill} />;
                case 'image':
                  return <ImageNode key={element.id} element={element} node={node} />;
              }
              return null;
            })}
            <Transformer
              ref={transformerRef}
              keepRatio
              rotateEnabled
              enabledAnchors={['top-left', 'top-right', 'bottom-left', 'bottom-right']}
              boundBoxFunc={(oldBox, newBox) =>
                Math.abs(newBox.width) < MIN_SIZE || Math.abs(newBox.height) < MIN_SIZE ? oldBox : newBox
              }
            />
          </Layer>
        </Stage>
      )}
      {editing && editedElement?.type === 'text' && (
        <input
          aria-label="Edit text"
          // biome-ignore lint/a11y/noAutofocus: the editor opens on a double-click, to type at once
          autoFocus
          value={editing.value}
          onChange={(e) => setEditing({ ...editing, value: e.target.value })}
          onKeyDown={onEditorKey}
          onBlur={finishEditing}
          style={{
            position: 'absolute',
            left: editorBox?.x ?? editedElement.x,
            top: editorBox?.y ?? editedElement.y,
            minWidth: Math.max(120, editorBox?.width ?? 0),
            fontSize: editedElement.fontSize * editedElement.scaleY,
            fontWeight: editedElement.fontStyle.includes('bold') ? 'bold' : 'normal',
            fontStyle: editedElement.fontStyle.includes('italic') ? 'italic' : 'normal',
            color: editedElement.fill ?? 'black',
            padding: 0,
            margin: 0,
            border: '1px dashed var(--mantine-color-blue-6)',
            background: 'white',
            outline: 'none',
          }}
        />
      )}
    </div>
  );
}
