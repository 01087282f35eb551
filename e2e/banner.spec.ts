import { readFile } from 'node:fs/promises';
import { approvedAgent, signIn } from './support/accounts';
import { expect, type Page, test } from './support/test';

/**
 * The banner designer in a real Chromium. Every canvas interaction goes through the
 * mouse on the canvas; positions and sizes are read back from the live Konva stage, which the
 * page exposes read-only as window.__bannerStage.
 */

/** A valid 1x1 PNG, generated here: nothing is fetched from outside. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type NodeInfo = {
  id: string;
  className: string;
  x: number;
  y: number;
  rotation: number;
  /** On-screen box, in page pixels. */
  box: { x: number; y: number; width: number; height: number };
  text?: string;
  fontSize?: number;
};

type StageWindow = Window & {
  __bannerStage?: {
    find: (selector: string) => StageNode[];
    findOne: (selector: string) => StageNode | undefined;
    container: () => HTMLElement;
    width: () => number;
    height: () => number;
  };
};
type StageNode = {
  id: () => string;
  getClassName: () => string;
  x: () => number;
  y: () => number;
  rotation: () => number;
  getClientRect: () => { x: number; y: number; width: number; height: number };
  getAttr: (name: string) => unknown;
};

/** Every element on the stage, with its box in page coordinates. */
function elements(page: Page): Promise<NodeInfo[]> {
  return page.evaluate(() => {
    const stage = (window as StageWindow).__bannerStage;
    if (!stage) return [];
    const origin = stage.container().getBoundingClientRect();
    return stage.find('.banner-element').map((node) => {
      const rect = node.getClientRect();
      return {
        id: node.id(),
        className: node.getClassName(),
        x: node.x(),
        y: node.y(),
        rotation: node.rotation(),
        box: { x: origin.x + rect.x, y: origin.y + rect.y, width: rect.width, height: rect.height },
        text: node.getAttr('text') as string | undefined,
        fontSize: node.getAttr('fontSize') as number | undefined,
      };
    });
  });
}

async function only(page: Page, className: string): Promise<NodeInfo> {
  const found = (await elements(page)).filter((el) => el.className === className);
  expect(found).toHaveLength(1);
  return found[0] as NodeInfo;
}

/** The centre of a transformer handle ('bottom-right', 'rotater'), in page coordinates. */
function handle(page: Page, name: string) {
  return page.evaluate((anchor) => {
    const stage = (window as StageWindow).__bannerStage;
    const node = stage?.findOne(`.${anchor}`);
    if (!stage || !node) throw new Error(`no ${anchor} handle`);
    const origin = stage.container().getBoundingClientRect();
    const rect = node.getClientRect();
    return { x: origin.x + rect.x + rect.width / 2, y: origin.y + rect.y + rect.height / 2 };
  }, name);
}

const centre = (el: NodeInfo) => ({ x: el.box.x + el.box.width / 2, y: el.box.y + el.box.height / 2 });

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

async function openDesigner(page: Page, request: Parameters<typeof approvedAgent>[0], name: string) {
  const agent = await approvedAgent(request, name);
  await signIn(page, agent.email, agent.password);
  // Reached from the navigation, as people do, not by typing its address.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Banner' }).click();
  await expect(page).toHaveURL(/\/banner$/);
  await expect(page.getByRole('heading', { name: 'Banner', level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => Boolean((window as StageWindow).__bannerStage))).toBe(true);
}

test('adds every element type, drags, resizes with a 20x20 minimum and rotates', async ({
  page,
  request,
}) => {
  await openDesigner(page, request, 'Bianca');
  const toolbar = page.getByRole('toolbar', { name: 'Banner tools' });
  await expect(toolbar.getByRole('button', { name: 'Undo' })).toBeDisabled();
  await expect(toolbar.getByRole('button', { name: 'Redo' })).toBeDisabled();
  await expect(toolbar.getByRole('button', { name: 'Delete' })).toBeDisabled();

  // The rectangle first, alone, so nothing overlaps what the mouse grabs.
  await toolbar.getByRole('button', { name: 'Rectangle' }).click();
  const rect = await only(page, 'Rect');
  expect(rect).toMatchObject({ x: 100, y: 100 });
  await expect(page.getByLabel('Fill color')).toBeVisible();

  await drag(page, centre(rect), { x: centre(rect).x + 100, y: centre(rect).y + 50 });
  await expect.poll(async () => (await only(page, 'Rect')).x).toBe(200);
  expect((await only(page, 'Rect')).y).toBe(150);

  // Resize through the bottom-right corner: larger first, then far past the minimum.
  const corner = await handle(page, 'bottom-right');
  await drag(page, corner, { x: corner.x + 50, y: corner.y + 50 });
  await expect.poll(async () => Math.round((await only(page, 'Rect')).box.width)).toBeGreaterThan(120);
  const grown = await handle(page, 'bottom-right');
  await drag(page, grown, { x: grown.x - 400, y: grown.y - 400 });
  const shrunk = await only(page, 'Rect');
  expect(shrunk.box.width).toBeGreaterThanOrEqual(20);
  expect(shrunk.box.height).toBeGreaterThanOrEqual(20);
  const size = await page.evaluate(() => {
    const node = (window as StageWindow).__bannerStage?.findOne('Rect');
    return { width: node?.getAttr('width') as number, height: node?.getAttr('height') as number };
  });
  expect(size.width).toBeGreaterThanOrEqual(20);
  expect(size.height).toBeGreaterThanOrEqual(20);

  // Rotate with the rotater handle.
  const rotater = await handle(page, 'rotater');
  await drag(page, rotater, { x: rotater.x + 120, y: rotater.y + 80 });
  await expect.poll(async () => (await only(page, 'Rect')).rotation).not.toBe(0);

  await toolbar.getByRole('button', { name: 'Text' }).click();
  await toolbar.getByRole('button', { name: 'Circle' }).click();
  await page.getByTestId('banner-image-input').setInputFiles({
    name: 'dot.png',
    mimeType: 'image/png',
    buffer: TINY_PNG,
  });
  await expect
    .poll(async () => (await elements(page)).map((el) => el.className).sort())
    .toEqual(['Circle', 'Image', 'Rect', 'Text']);
  expect(await only(page, 'Text')).toMatchObject({ x: 50, y: 50, text: 'Hello Banner!', fontSize: 20 });
  expect(await only(page, 'Circle')).toMatchObject({ x: 200, y: 200 });
  const image = await only(page, 'Image');
  expect(image).toMatchObject({ x: 150, y: 150 });
  expect(Math.round(image.box.width)).toBe(200);
});

/** Where the canvas sits on the page. */
function canvasTop(page: Page): Promise<number | undefined> {
  return page.evaluate(() => (window as StageWindow).__bannerStage?.container().getBoundingClientRect().top);
}

test('the canvas stays put as a selection starts and ends, so the text stays under the pointer', async ({
  page,
  request,
}) => {
  await openDesigner(page, request, 'Wanda');
  const toolbar = page.getByRole('toolbar', { name: 'Banner tools' });
  await toolbar.getByRole('button', { name: 'Text' }).click();
  await expect(page.getByLabel('Font size')).toBeVisible();
  const whileSelected = await canvasTop(page);

  // A click on the empty stage ends the selection: the format bar goes, the canvas stays.
  const text = await only(page, 'Text');
  // Well below the new text (placed at the top left), inside the 550 px tall stage.
  await page.mouse.click(centre(text).x, centre(text).y + 300);
  await expect(page.getByLabel('Font size')).toHaveCount(0);
  expect(await canvasTop(page)).toBe(whileSelected);

  // A click selects again (the format bar comes back) and the canvas has not moved, so the text is
  // still where the pointer is: a double-click there opens its editor.
  await page.mouse.click(centre(text).x, centre(text).y);
  await expect(page.getByLabel('Font size')).toBeVisible();
  expect(await canvasTop(page)).toBe(whileSelected);
  await page.mouse.dblclick(centre(text).x, centre(text).y);
  await expect(page.getByLabel('Edit text')).toBeVisible();
});

test('with animation frames coming late, as on a busy machine, each click still lands on what it aims at', async ({
  page,
  request,
}) => {
  // Konva draws (and hit-tests) on the next animation frame unless told to draw at once: delay
  // every frame by 300 ms, so a click right after a change meets the old drawing.
  await page.addInitScript(() => {
    const nextFrame = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => {
      setTimeout(() => nextFrame(callback), 300);
      return 0;
    };
  });
  await openDesigner(page, request, 'Slowpoke');
  const toolbar = page.getByRole('toolbar', { name: 'Banner tools' });
  await toolbar.getByRole('button', { name: 'Text' }).click();
  const editor = page.getByLabel('Edit text');

  // A text that has just appeared opens its editor on a double-click.
  const text = await only(page, 'Text');
  await page.mouse.dblclick(centre(text).x, centre(text).y);
  await expect(editor).toBeVisible();
  await editor.fill('Open House');
  await editor.press('Escape');
  await expect(editor).toHaveCount(0);

  // Back from under its closed editor, it is clicked, not the empty stage behind it.
  await page.mouse.click(centre(text).x, centre(text).y);
  await expect(page.getByLabel('Font size')).toBeVisible();
  await page.mouse.dblclick(centre(text).x, centre(text).y);
  await expect(editor).toBeVisible();
});

test('edits text, deletes, undoes, saves and reopens, and exports a PNG', async ({
  page,
  request,
}, testInfo) => {
  await openDesigner(page, request, 'Tomasz');
  const toolbar = page.getByRole('toolbar', { name: 'Banner tools' });
  await toolbar.getByRole('button', { name: 'Text' }).click();
  await expect(page.getByLabel('Font size')).toHaveValue('20');
  await expect(page.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');

  // Double-click opens the inline editor; Enter commits.
  const text = await only(page, 'Text');
  await page.mouse.dblclick(centre(text).x, centre(text).y);
  const editor = page.getByLabel('Edit text');
  await expect(editor).toBeVisible();
  await expect(editor).toBeFocused();
  await editor.fill('Open House Sunday');
  await editor.press('Enter');
  await expect(editor).toHaveCount(0);
  await expect.poll(async () => (await only(page, 'Text')).text).toBe('Open House Sunday');

  // Escape cancels.
  const edited = await only(page, 'Text');
  await page.mouse.dblclick(centre(edited).x, centre(edited).y);
  await expect(editor).toBeVisible();
  await editor.fill('Never mind');
  await editor.press('Escape');
  await expect(editor).toHaveCount(0);
  expect((await only(page, 'Text')).text).toBe('Open House Sunday');

  // The format bar changes the selected text.
  await page.mouse.click(centre(edited).x, centre(edited).y);
  await page.getByLabel('Font size').fill('32');
  await expect.poll(async () => (await only(page, 'Text')).fontSize).toBe(32);

  // The Delete key removes the selection; undo brings it back, redo removes it again.
  await toolbar.getByRole('button', { name: 'Circle' }).click();
  const circle = await only(page, 'Circle');
  await page.mouse.click(centre(circle).x + 30, centre(circle).y + 30);
  await expect(page.getByLabel('Fill color')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect.poll(async () => (await elements(page)).map((el) => el.className)).toEqual(['Text']);
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => (await elements(page)).map((el) => el.className)).toEqual(['Text', 'Circle']);
  await toolbar.getByRole('button', { name: 'Redo' }).click();
  await expect.poll(async () => (await elements(page)).map((el) => el.className)).toEqual(['Text']);
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => (await elements(page)).length).toBe(2);
  await toolbar.getByRole('button', { name: 'Rectangle' }).click();
  await expect(toolbar.getByRole('button', { name: 'Redo' })).toBeDisabled();

  // Save, reload, reopen.
  const before = (await elements(page)).map(({ id, className, x, y, text }) => ({
    id,
    className,
    x,
    y,
    text,
  }));
  await page.getByLabel('Banner name').fill('Open house flyer');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Banner saved')).toBeVisible();
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean((window as StageWindow).__bannerStage))).toBe(true);
  expect(await elements(page)).toEqual([]);
  await page.getByRole('combobox', { name: 'My banners' }).click();
  await page.getByRole('option', { name: 'Open house flyer' }).click();
  await expect
    .poll(async () =>
      (await elements(page)).map(({ id, className, x, y, text }) => ({ id, className, x, y, text })),
    )
    .toEqual(before);
  await expect(page.getByLabel('Banner name')).toHaveValue('Open house flyer');

  // Export: a real PNG at twice the stage's size.
  const stageSize = await page.evaluate(() => {
    const stage = (window as StageWindow).__bannerStage;
    return { width: stage?.width() ?? 0, height: stage?.height() ?? 0 };
  });
  expect(stageSize.height).toBe(550);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export PNG' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('banner.png');
  const png = await readFile(await download.path());
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  expect(png.readUInt32BE(16)).toBe(stageSize.width * 2);
  expect(png.readUInt32BE(20)).toBe(stageSize.height * 2);

  const path = 'test-results/screenshots/banner.png';
  await page.screenshot({ path });
  await testInfo.attach('banner designer', { path, contentType: 'image/png' });
});
