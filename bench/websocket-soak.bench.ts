import { randomBytes, randomInt } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildServerBundle, type PortalStack, startPortalStack } from '../server/test/built-server';
import { DEPLOYED_ENV, DEPLOYED_SERVER_OPTIONS } from '../server/test/deployed-env';
import { openTransaction, timedCall } from '../server/test/rest-client';
import { type Person, peopleInserter } from './lib/bench-people';
import type { Benchmark, Goal } from './lib/benchmark';
import { type LiveClient, openLiveClient } from './lib/live-client';
import { mib, rssBytes } from './lib/process-usage';
import { gapLines, loadNoteOf, machineLine, thousands } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * A soak of 10 minutes with 2,000 sockets connecting and disconnecting shows no growth in RSS
 * beyond 10% after the first minute: a socket's memory is given back when it goes. The built server holds
 * 2,000 subscribed sockets while, every second, about 5% of them (chosen at random) close and are
 * replaced by a new socket of the same user, so each socket is replaced many times over; every
 * 10 s admins' reviews notify a few subscribed agents, whose events must all arrive. The server's
 * RSS is read every second.
 */

const SOCKETS = 2_000;
const ADMINS = 10;
const SAMPLE_AGENTS = 20;
/** Share of the sockets closed and replaced every second. */
const CHURN_SHARE = 0.05;
const EVENT_EVERY_S = 10;
const EVENTS_PER_ROUND = 3;
/** How long an awaited event may take before it counts as missed. */
const EVENT_TIMEOUT_MS = 8_000;
const WINDOW_S = 10;
const GROWTH_GOAL = 0.1;
const COMMAND = 'npm run bench -- websocket-soak';
const SECRET = `bench-websocket-soak-${randomBytes(24).toString('hex')}`;

/** The benchmark's people (bench/lib/bench-people.ts), signed with this run's secret. */
const insertPeople = peopleInserter({ secret: SECRET, tag: 'soak', firstName: 'Soak', phoneBlock: '020' });

/** 127.6.0.2 onwards: one loopback address per user, as separate users would have. */
const addressOf = (n: number) => `127.6.${Math.floor(n / 200)}.${(n % 200) + 2}`;

/** One user's place: their current socket, replaced again and again. */
type Slot = {
  index: number;
  person: Person;
  client: LiveClient | undefined;
  /** The current socket's subscription has started (the server sends it events). */
  live: boolean;
  /** An event to this user is awaited: the churn leaves the socket alone until it arrives. */
  locked: boolean;
  /** Nonces of the events this user awaits, with what to do when one arrives. */
  awaiting: Map<string, () => void>;
};

type Counters = {
  connects: number;
  disconnects: number;
  /** Subscriptions that the server answered with `started`. */
  started: number;
  /** Sockets that closed or were refused before starting, without the benchmark closing them. */
  failed: number;
  eventsRaised: number;
  eventsDelivered: number;
  eventsMissed: number;
  /** Events on a socket that awaited none (a replay, or one meant for someone else). */
  unexpected: number;
  /** Reviews the API did not answer with 201. */
  raiseErrors: number;
};

type Sample = { atS: number; rss: number; live: number };

class Soak {
  readonly counters: Counters = {
    connects: 0,
    disconnects: 0,
    started: 0,
    failed: 0,
    eventsRaised: 0,
    eventsDelivered: 0,
    eventsMissed: 0,
    unexpected: 0,
    raiseErrors: 0,
  };
  readonly deliveryMs: number[] = [];
  readonly slots: Slot[];

  constructor(
    private readonly url: string,
    people: Person[],
  ) {
    this.slots = people.map((person, index) => ({
      index,
      person,
      client: undefined,
      live: false,
      locked: false,
      awaiting: new Map(),
    }));
  }

  /** Opens (or replaces) the slot's socket; it subscribes as soon as it is open. */
  open(slot: Slot): LiveClient {
    const client = openLiveClient({
      url: this.url,
      token: slot.person.token,
      localAddress: addressOf(slot.index),
      onEvent: (event) => this.received(slot, event.message),
    });
    slot.client = client;
    slot.live = false;
    this.counters.connects += 1;
    client.started.then(
      () => {
        this.counters.started += 1;
        if (slot.client === client) slot.live = true;
      },
      () => {
        // Closed by the benchmark before it started is churn; anything else is a failure.
        if (slot.client === client) {
          this.counters.failed += 1;
          slot.live = false;
        }
      },
    );
    return client;
  }

  close(slot: Slot): void {
    const client = slot.client;
    if (!client) return;
    slot.client = undefined;
    slot.live = false;
    client.close();
    this.counters.disconnects += 1;
  }

  private received(slot: Slot, message: string): void {
    for (const [nonce, arrived] of slot.awaiting) {
      if (message.includes(nonce)) {
        slot.awaiting.delete(nonce);
        arrived();
        return;
      }
    }
    this.counters.unexpected += 1;
  }

  /** Closes `count` random sockets not awaiting an event, and opens a replacement for each. */
  churn(count: number): void {
    for (let done = 0, tries = 0; done < count && tries < count * 10; tries++) {
      const slot = this.slots[randomInt(this.slots.length)];
      if (!slot || slot.locked || !slot.client) continue;
      this.close(slot);
      this.open(slot);
      done += 1;
    }
  }

  get liveCount(): number {
    return this.slots.reduce((sum, slot) => sum + (slot.live ? 1 : 0), 0);
  }

  /**
   * Waits for `nonce` on the slot's socket for up to EVENT_TIMEOUT_MS from `sentAt`; the slot is
   * locked (kept out of the churn) until then, so the event is due to a connected subscriber.
   */
  async expect(slot: Slot, nonce: string, raise: () => Promise<boolean>): Promise<void> {
    slot.locked = true;
    const sentAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const arrival = new Promise<number | undefined>((resolve) => {
      slot.awaiting.set(nonce, () => resolve(performance.now()));
      timer = setTimeout(() => resolve(undefined), EVENT_TIMEOUT_MS);
    });
    try {
      this.counters.eventsRaised += 1;
      const [raised, arrivedAt] = await Promise.all([raise(), arrival]);
      if (!raised) this.counters.raiseErrors += 1;
      if (arrivedAt === undefined) this.counters.eventsMissed += 1;
      else {
        this.counters.eventsDelivered += 1;
        this.deliveryMs.push(arrivedAt - sentAt);
      }
    } finally {
      clearTimeout(timer);
      slot.awaiting.delete(nonce);
      slot.locked = false;
    }
  }

  closeAll(): void {
    for (const slot of this.slots) this.close(slot);
  }
}

type Deal = { slot: Slot; id: string; formId: string };

type Measured = {
  soakS: number;
  idleRss: number;
  subscribedRss: number;
  connectAllS: number;
  samples: Sample[];
  afterCloseRss: number;
  counters: Counters;
  deliveryMs: number[];
  liveAtEnd: number;
};

async function soak(stack: PortalStack, log: (message: string) => void, soakS: number): Promise<Measured> {
  const { baseUrl } = stack.server;
  const pid = stack.server.child.pid;
  if (!pid) throw new Error('the server has no pid');
  log(`inserting ${SOCKETS} agents and ${ADMINS} admins`);
  const agents = await insertPeople(stack.databaseUrl, 'user', SOCKETS);
  const admins = await insertPeople(stack.databaseUrl, 'admin', ADMINS);
  const state = new Soak(`${baseUrl.replace('http', 'ws')}/trpc`, agents);
  try {
    const deals: Deal[] = [];
    for (const slot of state.slots.slice(0, SAMPLE_AGENTS)) {
      const created = await openTransaction(baseUrl, slot.person.token, {
        streetAddress: `${slot.index + 1} Soak Street`,
      });
      const formId = created.forms[0]?._id;
      if (!formId) throw new Error('the transaction has no forms');
      deals.push({ slot, id: created._id, formId });
    }
    await sleep(3_000);
    const idleRss = await rssBytes(pid);
    log(`server idle at ${round(mib(idleRss), 0)} MiB; opening ${SOCKETS} sockets`);

    const connectStarted = performance.now();
    for (let start = 0; start < SOCKETS; start += 250) {
      const batch = state.slots.slice(start, start + 250).map((slot) => state.open(slot));
      await Promise.all(batch.map((client) => client.started));
    }
    const connectAllS = (performance.now() - connectStarted) / 1000;
    const subscribedRss = await rssBytes(pid);
    log(`${state.liveCount} subscribed in ${round(connectAllS, 1)} s: ${round(mib(subscribedRss), 0)} MiB`);

    /** An admin reviews a sample agent's form with a comment: that agent alone is notified. */
    let reviews = 0;
    const review = (deal: Deal) => {
      const admin = admins[reviews % admins.length];
      reviews += 1;
      if (!admin) throw new Error('no admin');
      const nonce = randomBytes(6).toString('hex');
      return state.expect(deal.slot, nonce, async () => {
        const answer = await timedCall(
          baseUrl,
          'POST',
          `/api/admin/transactions/${deal.id}/forms/${deal.formId}/comments`,
          { token: admin.token, json: { text: `soak review ${nonce}` } },
        );
        return answer.status === 201;
      });
    };

    const samples: Sample[] = [];
    const pendingEvents: Array<Promise<void>> = [];
    const perTick = Math.round(SOCKETS * CHURN_SHARE);
    const began = performance.now();
    for (let second = 1; second <= soakS; second++) {
      state.churn(perTick);
      if (second % EVENT_EVERY_S === 5) {
        // Sample agents whose current socket is subscribed and not already awaiting an event.
        const ready = deals.filter((deal) => deal.slot.live && !deal.slot.locked);
        for (let i = 0; i < EVENTS_PER_ROUND && ready.length; i++) {
          const [deal] = ready.splice(randomInt(ready.length), 1);
          if (deal) pendingEvents.push(review(deal));
        }
      }
      const wait = began + second * 1000 - performance.now();
      if (wait > 0) await sleep(wait);
      samples.push({ atS: second, rss: await rssBytes(pid), live: state.liveCount });
      if (second % 60 === 0) {
        const c = state.counters;
        log(
          `minute ${second / 60}: ${round(mib(median(samples.slice(-WINDOW_S).map((s) => s.rss))), 1)} MiB, ` +
            `${state.liveCount} live, ${c.connects} connects, ${c.eventsDelivered}/${c.eventsRaised} events, ` +
            `${c.eventsMissed} missed, ${c.failed} failed sockets`,
        );
      }
    }
    await Promise.all(pendingEvents);
    const liveAtEnd = state.liveCount;
    // The churn's figures, before the final close adds 2,000 disconnects of its own.
    const counters = { ...state.counters };
    state.closeAll();
    await sleep(5_000);
    const afterCloseRss = await rssBytes(pid);
    return {
      soakS,
      idleRss,
      subscribedRss,
      connectAllS,
      samples,
      afterCloseRss,
      counters,
      deliveryMs: state.deliveryMs,
      liveAtEnd,
    };
  } finally {
    state.closeAll();
  }
}

/** Median RSS of each 10-second window: [start s, median] pairs, windows starting at `fromS`. */
function windows(samples: Sample[], fromS: number, toS: number): Array<{ startS: number; rss: number }> {
  const result: Array<{ startS: number; rss: number }> = [];
  for (let start = fromS; start + WINDOW_S <= toS; start += WINDOW_S) {
    const inside = samples.filter((s) => s.atS > start && s.atS <= start + WINDOW_S).map((s) => s.rss);
    if (inside.length) result.push({ startS: start, rss: median(inside) });
  }
  return result;
}

function figures(m: Measured) {
  const [minuteOne] = windows(m.samples, 50, 60);
  const later = windows(m.samples, 60, m.soakS);
  const highest = later.reduce((best, w) => (w.rss > best.rss ? w : best), later[0] ?? { startS: 0, rss: 0 });
  const last = later[later.length - 1] ?? highest;
  const base = minuteOne?.rss ?? Number.NaN;
  return { base, highest, last, growth: highest.rss / base - 1 };
}

function goalsOf(m: Measured, full: boolean, loadNote: string): Goal[] {
  const f = figures(m);
  const c = m.counters;
  const minutes = round(m.soakS / 60, 0);
  const met = full && f.growth <= GROWTH_GOAL && c.eventsMissed === 0 && c.failed === 0;
  const reasons: string[] = [];
  if (!full) reasons.push(`quick run: a soak of ${minutes} minutes, not the 10 the goal names`);
  if (f.growth > GROWTH_GOAL)
    reasons.push(
      `RSS grew ${round(f.growth * 100, 1)}% after the first minute (highest 10 s median at ${round(f.highest.startS / 60, 1)} min); the per-minute medians (table above) show whether it climbs with the churn or rises and falls with V8's heap between collections`,
    );
  if (c.eventsMissed)
    reasons.push(
      `${c.eventsMissed} events to subscribed agents did not arrive within ${EVENT_TIMEOUT_MS / 1000} s`,
    );
  if (c.failed) reasons.push(`${c.failed} sockets closed or were refused before their subscription started`);
  return [
    {
      name: `WebSocket soak: RSS growth after the first minute (${thousands(SOCKETS)} sockets churning, ${minutes} min)`,
      goal: `<= ${GROWTH_GOAL * 100}%`,
      baseline: `RSS at the end of minute 1 (${round(mib(f.base), 1)} MiB)`,
      measured: `${f.growth >= 0 ? '+' : ''}${round(f.growth * 100, 1)}% (highest 10 s median ${round(mib(f.highest.rss), 1)} MiB; final ${round(mib(f.last.rss), 1)} MiB; ${thousands(c.disconnects)} sockets replaced, ${c.eventsDelivered}/${c.eventsRaised} events)`,
      met,
      figures: [{ value: f.growth * 100, threshold: GROWTH_GOAL * 100, unit: '%', better: 'lower' }],
      ...(met ? {} : { gap: `${reasons.join('; ')} (${loadNote}).` }),
    },
  ];
}

const websocketSoakBench: Benchmark = {
  name: 'websocket-soak',
  async run({ log, quick }) {
    const soakS = quick ? 120 : 600;
    log('building dist/server/main.js');
    await buildServerBundle();
    const loadBefore = os.loadavg()[0] ?? Number.NaN;
    const stack = await startPortalStack({ JWT_SECRET: SECRET, ...DEPLOYED_ENV }, DEPLOYED_SERVER_OPTIONS);
    let m: Measured;
    try {
      m = await soak(stack, log, soakS);
    } finally {
      await stack.close();
    }
    const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? Number.NaN);
    const goals = goalsOf(m, !quick, loadNote);
    const f = figures(m);
    const c = m.counters;
    const perTick = Math.round(SOCKETS * CHURN_SHARE);
    const minuteRows: string[] = [];
    for (let minute = 1; minute * 60 <= m.soakS; minute++) {
      const inside = m.samples.filter((s) => s.atS > (minute - 1) * 60 && s.atS <= minute * 60);
      const rss = inside.map((s) => s.rss);
      const live = inside.map((s) => s.live);
      minuteRows.push(
        `| ${minute} | ${round(mib(median(rss)), 1)} | ${round(mib(Math.min(...rss)), 1)} | ${round(mib(Math.max(...rss)), 1)} | ${Math.min(...live)} to ${Math.max(...live)} |`,
      );
    }
    const markdown = [
      '## WebSocket soak: sockets connecting and disconnecting',
      '',
      `Command: \`${COMMAND}\` (bench/websocket-soak.bench.ts; \`-- --quick\`: a 2-minute soak).`,
      '',
      `What: the built server in one process of its own (\`node ${DEPLOYED_SERVER_OPTIONS.nodeFlags.join(' ')} dist/server/main.js\`, no source maps; NODE_ENV=production, ${Object.entries(
        DEPLOYED_ENV,
      )
        .map(([name, value]) => `${name}=${value}`)
        .join(
          ' ',
        )} as \`npm start\` and the Docker image set them (server/test/deployed-env.ts), an embedded PostgreSQL, rate limits at their defaults).`,
      `${thousands(SOCKETS)} agents and ${ADMINS} admins are inserted into the users table in one statement each, their access tokens signed with the`,
      "server's secret as a sign-in would sign them. Each agent gets a subscribed socket from a loopback address of its own (127.6.x.y) that speaks",
      "the frames of the portal's client (bench/lib/live-client.ts), 250 at a time. Then, for",
      `${round(m.soakS / 60, 0)} minutes, every second ${perTick} sockets (${CHURN_SHARE * 100}%, chosen at random) are closed and each replaced at once by a new socket of the`,
      `same user, which authenticates and subscribes again; every ${EVENT_EVERY_S} s an admin reviews the forms of up to ${EVENTS_PER_ROUND} of ${SAMPLE_AGENTS} sample agents`,
      '(POST /api/admin/transactions/:id/forms/:formId/comments) whose socket is subscribed at that moment; that socket is kept out of the churn',
      `until its event arrives, and an event not there within ${EVENT_TIMEOUT_MS / 1000} s counts as missed. The server's VmRSS (/proc) is read every second.`,
      `The figure: the median of the last ${WINDOW_S} s of minute 1 against the highest ${WINDOW_S}-second median after it.`,
      "RSS is memory, which the machine's load does not distort; the load is noted all the same.",
      '',
      machineLine(loadNote),
      '',
      '| Server RSS | MiB |',
      '| --- | ---: |',
      `| idle, no socket | ${round(mib(m.idleRss), 1)} |`,
      `| ${thousands(SOCKETS)} subscribed, before the churn (took ${round(m.connectAllS, 1)} s) | ${round(mib(m.subscribedRss), 1)} |`,
      `| end of minute 1 (median of its last ${WINDOW_S} s): the baseline | **${round(mib(f.base), 1)}** |`,
      `| highest ${WINDOW_S}-second median after minute 1 (from ${round(f.highest.startS, 0)} s) | **${round(mib(f.highest.rss), 1)}** |`,
      `| final (median of the last ${WINDOW_S} s) | ${round(mib(f.last.rss), 1)} |`,
      `| 5 s after every socket closed | ${round(mib(m.afterCloseRss), 1)} |`,
      '',
      '| Minute | median RSS MiB | min MiB | max MiB | subscribed sockets (per-second readings) |',
      '| ---: | ---: | ---: | ---: | ---: |',
      ...minuteRows,
      '',
      `Churn: ${thousands(c.connects)} sockets opened (${thousands(SOCKETS)} at the start), ${thousands(c.disconnects)} closed by the benchmark, so each user's socket was`,
      `replaced ${round((c.connects - SOCKETS) / SOCKETS, 1)} times on average; ${thousands(c.started)} subscriptions started; ${c.failed} sockets closed or were refused before`,
      `their subscription started without the benchmark closing them; ${m.liveAtEnd} subscribed at the end of the soak.`,
      '',
      `Events: ${c.eventsRaised} raised, ${c.eventsDelivered} delivered, **${c.eventsMissed} missed**${c.raiseErrors ? ` (${c.raiseErrors} reviews not answered 201)` : ''};`,
      `review sent -> event on the agent's socket p50 ${round(percentile(m.deliveryMs, 50), 1)} ms, p95 ${round(percentile(m.deliveryMs, 95), 1)} ms, max ${round(Math.max(...m.deliveryMs), 1)} ms.`,
      `Events on a socket that awaited none: ${c.unexpected}.`,
      ...gapLines(goals),
    ].join('\n');
    return { markdown, goals };
  },
};

export default websocketSoakBench;
