import { beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { createAdmin, createLibraryItem, createTemplate as createTemplateRow } from '../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import type { Caller, CallerContext } from './context';
import * as libraries from './libraries';
import * as reasons from './rejection-reasons';
import * as templates from './templates';
import * as webhooks from './webhooks/endpoints';

/**
 * The brokerage-wide settings (templates, libraries, rejection reasons, webhooks) are one set for
 * every office: an office admin reads them and is refused (403) any change, which a brokerage-wide
 * admin makes. Each change is refused before it reads or writes anything.
 */

const database = setupTestDatabase();
let deps: AppDeps;
let officeAdmin: CallerContext;
let wideAdmin: CallerContext;
const RUN = Date.now().toString(36);
const SOME_ID = '00000000-0000-4000-8000-000000000001';

const asCaller = (user: { id: string; officeId: string | null }): Caller => ({
  id: user.id,
  role: 'admin',
  isOwner: false,
  officeId: user.officeId,
});

beforeAll(async () => {
  deps = testDeps(database.db, { clock: new TestClock() });
  const north = await database.db.office.create({ data: { name: `North ${RUN}` } });
  officeAdmin = serviceContext(
    deps,
    asCaller(await createAdmin(database.db, { office: { connect: { id: north.id } } })),
  );
  wideAdmin = serviceContext(deps, asCaller(await createAdmin(database.db)));
});

describe('brokerage-wide settings', () => {
  it('refuses every change by an office admin with 403, and changes nothing', async () => {
    const template = await createTemplateRow(database.db, { type: `Settings ${RUN}` });
    const item = await createLibraryItem(database.db);
    const changes: Array<[string, () => Promise<unknown>]> = [
      [
        'createTemplate',
        () =>
          templates.createTemplate(officeAdmin, {
            type: `New ${RUN}`,
            role: 'Seller',
            forms: ['A'],
            optionalForms: [],
            keyDateKinds: [],
            conditionalForms: [],
          }),
      ],
      [
        'updateTemplate',
        () =>
          templates.updateTemplate(officeAdmin, {
            id: template.id,
            type: template.type,
            role: template.role,
            forms: ['B'],
          }),
      ],
      ['deleteTemplate', () => templates.deleteTemplate(officeAdmin, { id: template.id })],
      [
        'createItem',
        () => libraries.createItem(officeAdmin, { kind: 'form', name: 'X', link: 'https://x.test' }),
      ],
      [
        'updateItem',
        () => libraries.updateItem(officeAdmin, { kind: 'form', id: item.id, name: 'Y', link: item.link }),
      ],
      ['deleteItem', () => libraries.deleteItem(officeAdmin, { kind: 'form', id: item.id })],
      ['createReason', () => reasons.createReason(officeAdmin, { label: `Reason ${RUN}` })],
      ['updateReason', () => reasons.updateReason(officeAdmin, { code: 'illegible', active: false })],
      [
        'createEndpoint',
        () =>
          webhooks.createEndpoint(officeAdmin, {
            url: 'https://hooks.example.com/x',
            events: ['document.accepted'],
          }),
      ],
      ['updateEndpoint', () => webhooks.updateEndpoint(officeAdmin, { id: SOME_ID, active: false })],
      ['deleteEndpoint', () => webhooks.deleteEndpoint(officeAdmin, { id: SOME_ID })],
      ['retryDelivery', () => webhooks.retryDelivery(officeAdmin, { id: SOME_ID, deliveryId: SOME_ID })],
      ['sendTest', () => webhooks.sendTest(officeAdmin, { id: SOME_ID })],
      // Webhooks carry every office's events whole: even reading them is brokerage-wide.
      ['listEndpoints', () => webhooks.listEndpoints(officeAdmin)],
      ['listDeliveries', () => webhooks.listDeliveries(officeAdmin, { id: SOME_ID, page: 1, limit: 10 })],
    ];
    for (const [name, change] of changes) {
      await expect(change(), name).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: apiMessages.forbidden,
      });
    }
    expect(await database.db.transactionTemplate.findUnique({ where: { id: template.id } })).toMatchObject({
      documents: template.documents,
    });
    expect(await database.db.libraryItem.findUnique({ where: { id: item.id } })).toMatchObject({
      name: item.name,
    });
  });

  it('lets an office admin read them, and a brokerage-wide admin change them', async () => {
    const created = await reasons.createReason(wideAdmin, { label: `Wide ${RUN}` });
    expect((await reasons.listReasons(officeAdmin)).map((reason) => reason.code)).toContain(created.code);
    expect(await templates.allTemplates(officeAdmin)).toEqual(await templates.allTemplates(wideAdmin));
    const tutorials = { kind: 'tutorial', page: 1, limit: 10 } as const;
    expect(await libraries.listItems(officeAdmin, tutorials)).toEqual(
      await libraries.listItems(wideAdmin, tutorials),
    );
  });
});
