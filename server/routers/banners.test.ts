import { beforeAll, describe, expect, it } from 'vitest';
import type { BannerElement } from '../../shared/schemas/banners';
import { accessTokenFor, createUser } from '../test/factories';
import { setupTestDatabase, TestClock, testContext, testDeps } from '../test/harness';
import { createCaller } from '../trpc/router';

/** Saved banner designs are private to their author. */

const database = setupTestDatabase();
const clock = new TestClock();

async function callerFor(user: { id: string; role: 'user' | 'admin'; tokenVersion: number }) {
  const token = await accessTokenFor(user, { now: clock.now() });
  return createCaller(await testContext(testDeps(database.db, { clock }), token));
}

const elements: BannerElement[] = [
  {
    id: 't1',
    type: 'text',
    x: 50,
    y: 50,
    draggable: true,
    fill: 'black',
    scaleX: 1,
    scaleY: 1,
    rotation: 0,
    text: 'Just listed',
    fontSize: 20,
    fontStyle: 'bold italic',
    underline: true,
  },
  {
    id: 'r1',
    type: 'rect',
    x: 100,
    y: 100,
    draggable: true,
    fill: 'blue',
    scaleX: 1,
    scaleY: 1,
    rotation: 15,
    width: 100,
    height: 100,
  },
  {
    id: 'c1',
    type: 'circle',
    x: 200,
    y: 200,
    draggable: true,
    fill: 'green',
    scaleX: 1,
    scaleY: 1,
    rotation: 0,
    radius: 50,
  },
  {
    id: 'i1',
    type: 'image',
    x: 150,
    y: 150,
    draggable: true,
    scaleX: 1,
    scaleY: 1,
    rotation: 0,
    width: 200,
    height: 200,
    src: 'data:image/png;base64,iVBORw0KGgo=',
  },
];

let alice: Awaited<ReturnType<typeof callerFor>>;
let bob: Awaited<ReturnType<typeof callerFor>>;
beforeAll(async () => {
  alice = await callerFor(await createUser(database.db));
  bob = await callerFor(await createUser(database.db));
});

describe('banners', () => {
  it('save, list, reopen and update my own design', async () => {
    const saved = await alice.banners.save({ name: 'Open house', elements });
    expect(saved.elements).toEqual(elements);
    expect((await alice.banners.list()).map((b) => b.name)).toContain('Open house');
    expect((await alice.banners.get({ id: saved._id })).elements).toEqual(elements);
    const renamed = await alice.banners.save({
      id: saved._id,
      name: 'Open house (Sat)',
      elements: elements.slice(0, 1),
    });
    expect(renamed).toMatchObject({ _id: saved._id, name: 'Open house (Sat)' });
    expect(renamed.elements).toHaveLength(1);
  });

  it("another user's banner is 404 for reading, saving over and deleting; it never shows in their list", async () => {
    const mine = await alice.banners.save({ name: 'Just listed', elements });
    await expect(bob.banners.get({ id: mine._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(bob.banners.save({ id: mine._id, name: 'stolen', elements: [] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(bob.banners.delete({ id: mine._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await bob.banners.list()).map((b) => b._id)).not.toContain(mine._id);
    expect((await alice.banners.get({ id: mine._id })).name).toBe('Just listed');
  });

  it('refuses what is not a design: unknown element types, remote images, a missing name', async () => {
    await expect(alice.banners.save({ name: ' ', elements })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      alice.banners.save({
        name: 'x',
        elements: [{ ...elements[3], src: 'https://evil.example/x.png' } as BannerElement],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      alice.banners.save({
        name: 'x',
        elements: [{ id: 'z', type: 'video', x: 0, y: 0 }] as unknown as BannerElement[],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('delete removes it for good', async () => {
    const mine = await alice.banners.save({ name: 'Temporary', elements: [] });
    expect(await alice.banners.delete({ id: mine._id })).toEqual({ message: 'Banner deleted' });
    await expect(alice.banners.get({ id: mine._id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
