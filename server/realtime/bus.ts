import pg from 'pg';
import type { Notification } from '../../shared/schemas/notifications';
import { describeErrorForLog } from '../errors';

/**
 * Live delivery across every server instance with PostgreSQL alone: a
 * change that notifies someone calls pg_notify in its own transaction, so the event leaves only
 * if the change commits, in commit order. Each instance holds ONE listening connection and fans
 * events out to the sockets of its users. When that connection drops (a database restart), it
 * reconnects with back-off and tells every subscriber to catch up from the table.
 */

export const NOTIFICATIONS_CHANNEL = 'portal_notifications';
/**
 * Carries `<userId>:admin` (an admin who reads every office), `<userId>:admin:<officeId>` (an
 * admin who reads one office) or `<userId>:not-admin` when an account becomes or stops being an
 * active admin, and when an active admin's office changes: sent by the admin_terms trigger on
 * users (migrations 20261202090000, 20261203120000), so the notices to the admins reach exactly
 * the streams of the admins of the moment, each with the notices of the office it has now.
 */
export const ADMINS_CHANNEL = 'portal_admins';

/** Carries a user id whose live connections must close (deactivation). */
export const SESSIONS_CHANNEL = 'portal_sessions';

export type BusEvent =
  | { kind: 'notification'; notification: Notification }
  /** Events may have been missed (the listener reconnected): read them from the table. */
  | { kind: 'resync' }
  /** The user was deactivated: end their live connections. */
  | { kind: 'revoked' };

/** What /metrics reports about the bus (server/plugins/metrics.ts). */
export type BusStats = {
  /** The LISTEN connection is up: events raised anywhere reach this instance. */
  listening: boolean;
  /** Live subscriptions on this instance (one per open notification stream). */
  subscriptions: number;
};

/**
 * Which notices to the admins a subscriber hears: none (false), every one (true, or officeId
 * null), or those of one office. Who reads which is the services' rule; the bus only compares.
 */
export type AdminSubscription = boolean | { officeId: string | null };

export type NotificationBus = {
  /**
   * Calls `listener` for every event of that user on this instance, and with `admin` for every
   * notice to the admins that it reads but the one it excepts; returns the unsubscribe.
   */
  subscribe(userId: string, admin: AdminSubscription, listener: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
  /** Absent on the tests' stand-in buses, which have nothing to report. */
  stats?(): BusStats;
};

/**
 * A bus message of the notifications channel, as services/notifications.ts writes them:
 * - one notification for several users, `{to: [[userId, notificationId], ...], notification}`
 *   with the notification's fields but its id;
 * - a notice to every active admin but one, `{admins: {id, except, office}, notification}`: one
 *   message whatever their number; admins held to an office hear it only if it is of that office
 *   (`office` null or absent: brokerage-wide admins only);
 * - `{userId, notification}`, one user's, as older instances sent them (before notices to all
 *   admins were stored once): still read, so
 *   instances of both kinds can share a database during a rolling deploy.
 */
export type BusMessage =
  | { kind: 'users'; deliveries: { userId: string; notification: Notification }[] }
  | { kind: 'admins'; except: string | null; office: string | null; notification: Notification };

export function busMessageOf(payload: string): BusMessage {
  const message = JSON.parse(payload) as
    | { to: [string, string][]; notification: Omit<Notification, '_id'> }
    | {
        admins: { id: string; except: string | null; office?: string | null };
        notification: Omit<Notification, '_id'>;
      }
    | { userId: string; notification: Notification };
  if ('admins' in message) {
    return {
      kind: 'admins',
      except: message.admins.except,
      office: message.admins.office ?? null,
      notification: { _id: message.admins.id, ...fieldsOf(message.notification) },
    };
  }
  if (!('to' in message)) return { kind: 'users', deliveries: [message] };
  const fields = fieldsOf(message.notification);
  return {
    kind: 'users',
    deliveries: message.to.map(([userId, _id]) => ({ userId, notification: { _id, ...fields } })),
  };
}

/** A notification's fields but its id, and nothing else the message may carry. */
const fieldsOf = ({ message, link, read, createdAt, transactionDeleted }: Omit<Notification, '_id'>) => ({
  message,
  link,
  read,
  createdAt,
  transactionDeleted,
});

type Logger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type BusOptions = { minDelayMs?: number; maxDelayMs?: number };

export function createNotificationBus(
  databaseUrl: string,
  log: Logger,
  options: BusOptions = {},
): NotificationBus & { ready: Promise<void> } {
  const minDelay = options.minDelayMs ?? 200;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const listeners = new Map<string, Set<(event: BusEvent) => void>>();
  /**
   * The subscribed users who are active admins, each with the office whose notices it hears (null:
   * every office): as their sessions said when they subscribed, then as ADMINS_CHANNEL tells.
   */
  const admins = new Map<string, string | null>();
  let subscriptions = 0;
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });

  /** Users ADMINS_CHANNEL told of while a reconnected bus read its subscribers' statuses again. */
  let toldWhileReading: Set<string> | undefined;

  /** Applies `<userId>:<status>` (ADMINS_CHANNEL's form) and returns the user's id. */
  function applyStatus(payload: string): string {
    const [userId = '', status, office] = payload.split(':');
    if (status === 'admin' && listeners.has(userId)) admins.set(userId, office || null);
    else if (status === 'not-admin') admins.delete(userId);
    return userId;
  }

  /**
   * What ADMINS_CHANNEL may have told while no connection listened (an admin moved to another
   * office during a database restart): each subscriber's status read again, as the admin_terms
   * trigger states it (admin_notices_heard, migration 20261203120000), unless the channel has told
   * it since the read began.
   */
  async function readStatusesAgain(connection: pg.Client) {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const subscribed = [...listeners.keys()].filter((userId) => uuid.test(userId));
    if (subscribed.length === 0) return;
    const told = new Set<string>();
    toldWhileReading = told;
    try {
      const { rows } = await connection.query<{ status: string }>(
        `SELECT u.id::text || ':' || admin_notices_heard(u) AS status FROM users u WHERE u.id = ANY($1::uuid[])`,
        [subscribed],
      );
      for (const { status } of rows) {
        if (!told.has(status.split(':')[0] ?? '')) applyStatus(status);
      }
    } catch (error) {
      log.warn({ error: describeErrorForLog(error) }, "could not read the subscribed admins' offices again");
    } finally {
      if (toldWhileReading === told) toldWhileReading = undefined;
    }
  }

  function emit(userId: string, event: BusEvent) {
    for (const listener of listeners.get(userId) ?? []) listener(event);
  }

  function onNotification(message: pg.Notification) {
    try {
      if (message.channel === ADMINS_CHANNEL && message.payload) {
        const userId = applyStatus(message.payload);
        toldWhileReading?.add(userId);
      } else if (message.channel === SESSIONS_CHANNEL && message.payload) {
        emit(message.payload, { kind: 'revoked' });
      } else if (message.channel === NOTIFICATIONS_CHANNEL && message.payload) {
        const parsed = busMessageOf(message.payload);
        if (parsed.kind === 'admins') {
          // One event object for every admin: their streams only read it.
          const event: BusEvent = { kind: 'notification', notification: parsed.notification };
          for (const [userId, office] of admins) {
            if (userId !== parsed.except && (office === null || office === parsed.office))
              emit(userId, event);
          }
        } else {
          for (const { userId, notification } of parsed.deliveries) {
            emit(userId, { kind: 'notification', notification });
          }
        }
      }
    } catch (error) {
      log.warn({ error: describeErrorForLog(error) }, 'ignored a malformed bus message');
    }
  }

  function scheduleReconnect() {
    if (closed || timer) return;
    const delay = Math.min(maxDelay, minDelay * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'portal-notification-bus',
    });
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('notification');
      if (!closed) {
        log.warn(
          { error: error ? describeErrorForLog(error) : undefined },
          'notification listener lost; reconnecting',
        );
        scheduleReconnect();
      }
    };
    next.on('error', lost);
    next.on('end', () => lost());
    try {
      await next.connect();
      await next.query(`LISTEN ${NOTIFICATIONS_CHANNEL}`);
      await next.query(`LISTEN ${SESSIONS_CHANNEL}`);
      await next.query(`LISTEN ${ADMINS_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners();
      next.on('error', () => {});
      await next.end().catch(() => {});
      if (!closed) {
        log.warn({ error: describeErrorForLog(error) }, 'notification listener could not connect; retrying');
        scheduleReconnect();
      }
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    const wasReconnect = attempt > 0;
    client = next;
    attempt = 0;
    next.on('notification', onNotification);
    resolveReady();
    if (wasReconnect) {
      log.info({}, 'notification listener reconnected');
      await readStatusesAgain(next);
      for (const userId of listeners.keys()) emit(userId, { kind: 'resync' });
    }
  }

  void connect();

  return {
    ready,
    subscribe(userId, admin, listener) {
      let set = listeners.get(userId);
      if (!set) {
        set = new Set();
        listeners.set(userId, set);
      }
      set.add(listener);
      subscriptions += 1;
      if (admin) admins.set(userId, admin === true ? null : admin.officeId);
      let subscribed = true;
      return () => {
        // Counted once even if a caller unsubscribes twice (the gauge must not drift below zero).
        if (!subscribed) return;
        subscribed = false;
        subscriptions -= 1;
        set.delete(listener);
        if (set.size === 0) {
          listeners.delete(userId);
          admins.delete(userId);
        }
      };
    },
    stats: () => ({ listening: client !== undefined, subscriptions }),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
