import type { ConditionalForm } from '../../../shared/schemas/facts';
import { createTemplate } from '../factories';
import type { ProcedureRow } from './procedures';
import type { RouteRow } from './routes';
import { ADMINS_ON_NORTH, BROKERAGE, DEALS_OF_A, OPEN_FOR_A, OWNER } from './rules';
import { A, type ActorName, address, database, freshDeal, freshTemplate, newDeal, unique } from './world';

/**
 * Facts and conditional items through the paths that already have a row: the same procedures and
 * routes, called again with `facts` or `conditionalForms` in the body, so a change of facts (which
 * changes the checklist too) is as closely held as the rest of the body. Each cell's target is
 * fresh, and after the cell the target must hold the change when the actor was let through, and
 * nothing of it otherwise.
 */

const HOA_RULE: ConditionalForm = { label: 'HOA Documents', when: [{ fact: 'hoa', op: 'eq', value: true }] };
const FACTS = { hoa: true, yearBuilt: 1965, financing: 'fha' } as const;
const RULES: ConditionalForm[] = [
  HOA_RULE,
  { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] },
];

type Target =
  | { kind: 'deal'; id: string }
  | { kind: 'street'; street: string }
  | { kind: 'template'; id: string };
/** The target of the cell running now: set by its input, read after its call. */
let target: Target | undefined;

/** A's deal that holds the HOA rule: setting `hoa` puts HOA Documents on its checklist. */
async function dealWithRule() {
  const deal = await freshDeal();
  await database.db.transaction.update({ where: { id: deal.id }, data: { checklistRules: [HOA_RULE] } });
  target = { kind: 'deal', id: deal.id };
  return deal;
}

/** A template whose type holds the HOA rule, so a deal opened with `hoa` set starts with the item. */
let ruledType: string | undefined;
async function typeWithRule() {
  ruledType ??= (
    await createTemplate(database.db, {
      type: `Matrix-facts-${unique()}`,
      role: 'Seller',
      conditionalDocuments: [HOA_RULE],
    })
  ).type;
  return ruledType;
}

/** A deal in A's name, with facts, at a street of its own so the cell finds what it opened. */
async function newDealWithFacts(actor: ActorName) {
  const street = `${unique()} Facts Road`;
  target = { kind: 'street', street };
  return { ...newDeal(actor), type: await typeWithRule(), streetAddress: street, facts: FACTS };
}

async function ruledTemplate() {
  const template = await freshTemplate();
  target = { kind: 'template', id: template.id };
  return { type: template.type, role: template.role, forms: ['Disclosure'], conditionalForms: RULES };
}

/** What the cell's target holds of the change: its facts and conditional items, or its rules. */
async function stored(): Promise<unknown> {
  const cell = target;
  target = undefined;
  if (!cell) throw new Error('the cell made no target');
  if (cell.kind === 'template') {
    const row = await database.db.transactionTemplate.findUniqueOrThrow({ where: { id: cell.id } });
    return { rules: row.conditionalDocuments };
  }
  const where = cell.kind === 'deal' ? { id: cell.id } : { streetAddress: cell.street };
  const rows = await database.db.transaction.findMany({
    where,
    select: {
      hoa: true,
      yearBuilt: true,
      financing: true,
      forms: { where: { conditional: true }, select: { label: true, required: true, requiredBecause: true } },
    },
  });
  return rows.map(({ forms, ...facts }) => ({ facts, forms }));
}

const WITH_ITEM = [
  {
    facts: FACTS,
    forms: [{ label: 'HOA Documents', required: true, requiredBecause: 'The property has an HOA' }],
  },
];
const DEAL_UNTOUCHED = [{ facts: { hoa: null, yearBuilt: null, financing: null }, forms: [] }];

export type FactsRow = {
  /** What `stored()` finds when the actor was let through, and when it was not. */
  applied: unknown;
  untouched: unknown;
  stored: () => Promise<unknown>;
} & ({ procedure: string; row: ProcedureRow } | { route: string; row: RouteRow });

const onDeal = { applied: WITH_ITEM, untouched: DEAL_UNTOUCHED, stored };
const opened = { applied: WITH_ITEM, untouched: [], stored };
const onTemplate = { applied: { rules: RULES }, untouched: { rules: [] }, stored };

export const FACTS_ROWS: Record<string, FactsRow> = {
  'transactions.update with facts': {
    ...onDeal,
    procedure: 'transactions.update',
    row: {
      expect: DEALS_OF_A,
      input: async () => ({ id: (await dealWithRule()).id, userId: A().id, ...address, facts: FACTS }),
    },
  },
  'PUT /api/transactions/:id/:userId with facts': {
    ...onDeal,
    route: 'PUT /api/transactions/:id/:userId',
    row: {
      expect: DEALS_OF_A,
      request: async () => ({
        url: `/api/transactions/${(await dealWithRule()).id}/${A().id}`,
        payload: { ...address, facts: FACTS },
      }),
    },
  },
  'adminTransactions.update with facts': {
    ...onDeal,
    procedure: 'adminTransactions.update',
    row: {
      expect: ADMINS_ON_NORTH,
      input: async () => ({ id: (await dealWithRule()).id, ...address, facts: FACTS }),
    },
  },
  'PUT /api/admin/transactions/:id with facts': {
    ...onDeal,
    route: 'PUT /api/admin/transactions/:id',
    row: {
      expect: ADMINS_ON_NORTH,
      request: async () => ({
        url: `/api/admin/transactions/${(await dealWithRule()).id}`,
        payload: { ...address, facts: FACTS },
      }),
    },
  },
  'transactions.create with facts': {
    ...opened,
    procedure: 'transactions.create',
    row: { expect: OPEN_FOR_A, input: newDealWithFacts },
  },
  'POST /api/transactions with facts': {
    ...opened,
    route: 'POST /api/transactions',
    row: {
      expect: OPEN_FOR_A,
      request: async (actor) => ({ url: '/api/transactions', payload: await newDealWithFacts(actor) }),
    },
  },
  'templates.update with conditionalForms': {
    ...onTemplate,
    procedure: 'templates.update',
    row: { expect: BROKERAGE, input: ruledTemplateWithId },
  },
  'PUT /api/admin/forms/transactions/form/:id with conditionalForms': {
    ...onTemplate,
    route: 'PUT /api/admin/forms/transactions/form/:id',
    row: {
      expect: BROKERAGE,
      request: async () => {
        const body = await ruledTemplate();
        return { url: `/api/admin/forms/transactions/form/${templateId()}`, payload: body };
      },
    },
  },
  'templates.create with conditionalForms': {
    applied: [{ rules: RULES }],
    untouched: [],
    stored: createdTemplates,
    procedure: 'templates.create',
    row: { expect: OWNER, input: newTemplate },
  },
  'POST /api/admin/forms/transactions/insert with conditionalForms': {
    applied: [{ rules: RULES }],
    untouched: [],
    stored: createdTemplates,
    route: 'POST /api/admin/forms/transactions/insert',
    row: {
      expect: OWNER,
      request: () => ({ url: '/api/admin/forms/transactions/insert', payload: newTemplate() }),
    },
  },
};

function templateId() {
  if (target?.kind !== 'template') throw new Error('no template made for this cell');
  return target.id;
}

async function ruledTemplateWithId() {
  const body = await ruledTemplate();
  return { ...body, id: templateId() };
}

/** A new template's type: the cell finds what it made by it. */
let newType = '';
function newTemplate() {
  newType = `Matrix-rules-${unique()}`;
  return { type: newType, role: 'Seller', forms: ['Listing Agreement'], conditionalForms: RULES };
}

async function createdTemplates() {
  const rows = await database.db.transactionTemplate.findMany({ where: { type: newType } });
  return rows.map((row) => ({ rules: row.conditionalDocuments }));
}
