import { performance } from 'node:perf_hooks';
import type { ConditionalForm } from '../../shared/schemas/facts';
import { alternate } from './ab';
import { withClient } from './dataset';
import { BENCH_TEMPLATE, HOA_LABEL, jobState } from './smart-checklists-data';
import { percentile } from './stats';

/**
 * The smart-checklists benchmark's requests: the admin list timed one request at a time, a
 * template's rules changed through its REST path and followed until the job that copies them is
 * done, and fact changes over PUT against the same PUT without facts.
 */

export type Timed = { at: number; ms: number };

async function send(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const began = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - began;
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return { ms, text, at: began };
}

/** One GET of the list, timed to its last byte. */
export async function timeList(baseUrl: string, token: string, path: string): Promise<Timed> {
  const { ms, at } = await send(baseUrl, token, 'GET', path);
  return { at, ms };
}

/** `count` list requests one after the other. */
export async function listTimes(baseUrl: string, token: string, path: string, count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push((await timeList(baseUrl, token, path)).ms);
  return times;
}

export type RulesRun = {
  /** From the template's PUT being sent to the job's queue entry gone. */
  seconds: number;
  /** The template's PUT alone (it enqueues the job in its own transaction). */
  putMs: number;
  /** Whether the job was seen queued or running after the PUT answered. */
  queued: boolean;
  attempts: number;
  lastError: string | null;
  /** List requests timed while the job ran (empty unless asked for). */
  list: Timed[];
};

/** One change of the rules measured: where they went, the job, and the quiet list window before it. */
export type Change = { to: 'after' | 'before'; run: RulesRun; quiet: number[] };

/**
 * PUT /api/admin/forms/transactions/form/:id with new conditionalForms, then the job engine of the
 * built server runs templates:apply-rules; polled every 100 ms on a connection of its own. With
 * `listPath`, the admin list is requested one at a time until the job is done.
 */
export async function changeRules(
  baseUrl: string,
  token: string,
  databaseUrl: string,
  templateId: string,
  rules: ConditionalForm[],
  options: { listPath?: string; timeoutS: number },
): Promise<RulesRun> {
  return withClient(databaseUrl, async (client) => {
    const began = performance.now();
    const put = await send(baseUrl, token, 'PUT', `/api/admin/forms/transactions/form/${templateId}`, {
      ...BENCH_TEMPLATE,
      forms: ['Purchase Agreement', 'Agency Disclosure', 'Closing Statement'],
      optionalForms: [],
      conditionalForms: rules,
    });
    let state = await jobState(client);
    const queued = state.pending > 0;
    let done = !queued;
    let attempts = state.attempts;
    let lastError = state.lastError;
    let endedAt = performance.now();
    const list: Timed[] = [];
    const poll = (async () => {
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = await jobState(client);
        attempts = Math.max(attempts, state.attempts);
        lastError = state.lastError ?? lastError;
        const now = performance.now();
        if (state.pending === 0 || now - began > options.timeoutS * 1000) {
          endedAt = now;
          done = true;
        }
      }
    })();
    const listing = (async () => {
      if (!options.listPath) return;
      while (!done) {
        const timed = await timeList(baseUrl, token, options.listPath);
        // A request that ended after the job did is not "during" it.
        if (!done) list.push(timed);
      }
    })();
    await Promise.all([poll, listing]);
    const seconds = state.pending === 0 ? (endedAt - began) / 1000 : Number.NaN;
    return { seconds, putMs: put.ms, queued, attempts, lastError, list };
  });
}

export type FactRow = {
  id: string;
  streetAddress: string;
  city: string;
  state: string;
  zip: string;
  /** Whether the HOA item is on its checklist now. */
  hasItem: boolean;
};

/** Open rows of the template where HOA decides the HOA item (condo, townhouse, single-family). */
export async function factRows(databaseUrl: string, templateId: string, count: number): Promise<FactRow[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<FactRow>(
      `SELECT t.id::text AS id, t.street_address AS "streetAddress", t.city, t.state, t.zip,
              EXISTS (SELECT 1 FROM transaction_forms f WHERE f.transaction_id = t.id AND f.label = $2) AS "hasItem"
         FROM transactions t
        WHERE t.template_id = $1::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL
          AND t.property_type IN ('condo', 'townhouse', 'single-family')
          AND NOT EXISTS (SELECT 1 FROM transaction_forms f
                           WHERE f.transaction_id = t.id AND f.label = $2 AND f.version > 0)
        ORDER BY md5(t.id::text) LIMIT $3`,
      [templateId, HOA_LABEL, count],
    );
    return rows;
  });
}

export type PutResult = {
  baseline: number[];
  facts: number[];
  perRound: Array<{ baseline: number; facts: number }>;
  added: number;
  removed: number;
};

/**
 * PUT /api/admin/transactions/:id with the row's own address, alone (the baseline) or with
 * `facts: { hoa }` flipped so the HOA item comes or goes, alternated in rounds; each answer of a
 * fact change is checked to hold the item, or not, as the flip asks.
 */
export async function measurePuts(
  baseUrl: string,
  token: string,
  rows: FactRow[],
  rounds: number,
  perRound: number,
): Promise<PutResult> {
  let next = 0;
  let added = 0;
  let removed = 0;
  const baseline: number[] = [];
  const facts: number[] = [];
  const put = async (withFacts: boolean) => {
    const row = rows[next++ % rows.length] as FactRow;
    const { id, hasItem, ...address } = row;
    const body = withFacts ? { ...address, facts: { hoa: !hasItem } } : address;
    const { ms, text } = await send(baseUrl, token, 'PUT', `/api/admin/transactions/${id}`, body);
    if (withFacts) {
      const answer = JSON.parse(text) as { forms: Array<{ label: string }> };
      const present = answer.forms.some((form) => form.label === HOA_LABEL);
      if (present === hasItem)
        throw new Error(`PUT facts on ${id}: the HOA item did not ${hasItem ? 'go' : 'come'}`);
      row.hasItem = present;
      if (present) added++;
      else removed++;
    }
    return ms;
  };
  const batch = async (withFacts: boolean, into: number[]) => {
    const taken: number[] = [];
    for (let i = 0; i < perRound; i++) taken.push(await put(withFacts));
    into.push(...taken);
    return percentile(taken, 95);
  };
  // Warm-up: the pool's connections, the JIT, the plans.
  for (let i = 0; i < 20; i++) {
    await put(false);
    await put(true);
  }
  added = 0;
  removed = 0;
  const ab = await alternate(
    rounds,
    () => batch(false, baseline),
    () => batch(true, facts),
  );
  return {
    baseline,
    facts,
    perRound: ab.baseline.map((value, i) => ({ baseline: value, facts: ab.candidate[i] ?? Number.NaN })),
    added,
    removed,
  };
}
