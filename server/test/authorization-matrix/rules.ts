/**
 * The reviewed table of the authorization matrix: what each of the nine actors gets from every
 * procedure and every route, written from the intended policy (the product's access rules), not
 * from the code's answers:
 * - anonymous callers get 401 from everything but the public sign-in paths, health and docs;
 * - admin paths are 403 for agents (coordinators too: they never review), owner paths 403 for
 *   everyone but the owner;
 * - a path naming another user's id is 403 (decided before any lookup), an admin excepted;
 * - another agent's object behind an id is 404, so an id reveals nothing; admins reach any
 *   transaction, also through the agent paths; banners are private even from admins;
 * - a body `user` naming someone else is 403, for admins too: nobody opens a deal in another's name;
 * - an office admin is an admin for its office's users and records, and the brokerage's settings
 *   (templates, libraries, rejection reasons, webhooks, offices) are not its to change (403);
 *   a transaction, form, user, key or office of another office is 404 for it, never 403;
 * - a coordinator works on its agents' transactions as they could, also through the paths that
 *   name the agent's id, and reads the agent's profile; what is personal to the agent (changing
 *   the profile, the password, notifications and their settings) stays the agent's.
 *
 * The target of every row belongs to agent A, in office North (A's transaction, A's banner, A's
 * id in the path), so agent B's column is the cross-tenant one, the other office admin's the
 * cross-office one. Every cell sends a valid input, so authorization alone decides; rows whose
 * call changes or deletes something get a fresh target per cell.
 */

/** 'ok' is any 2xx; the numbers are the exact status expected. */
export type Outcome = 'ok' | 302 | 303 | 401 | 403 | 404;
/** One outcome per actor, in the order of ACTORS. */
export type Expected = readonly [
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
];
export const OK = 'ok' as const;

type Derived = 'officeAdminOwn' | 'officeAdminOther' | 'coordinatorOwn' | 'coordinatorOther';
/**
 * A row's nine outcomes from the five of the base actors: an office admin gets what the admin
 * gets, a coordinator what the agent it works for gets (the own coordinator A's, the other B's),
 * unless `differ` says otherwise.
 */
function rule(
  [anonymous, agentA, agentB, admin, owner]: readonly [Outcome, Outcome, Outcome, Outcome, Outcome],
  differ: Partial<Record<Derived, Outcome>> = {},
): Expected {
  return [
    anonymous,
    agentA,
    agentB,
    admin,
    owner,
    differ.officeAdminOwn ?? admin,
    differ.officeAdminOther ?? admin,
    differ.coordinatorOwn ?? agentA,
    differ.coordinatorOther ?? agentB,
  ];
}
export const uniform = (outcome: Outcome): Expected => rule([outcome, outcome, outcome, outcome, outcome]);

/** North's record, seen from South: not there. */
const CROSS_OFFICE = { officeAdminOther: 404 } as const;
/** What no office admin may do: the brokerage's own settings. */
const BROKERAGE_ONLY = { officeAdminOwn: 403, officeAdminOther: 403 } as const;

//                                  [anonymous, agentA, agentB, admin, owner]
export const PUBLIC = uniform(OK);
export const ANY_USER = rule([401, OK, OK, OK, OK]);
/** Lists and reads of the desk: an office admin's are of its office. */
export const ADMINS = rule([401, 403, 403, OK, OK]);
/** The desk acting on a record of North (A's transaction, a North agent, a North key). */
export const ADMINS_ON_NORTH = rule([401, 403, 403, OK, OK], CROSS_OFFICE);
/** The brokerage's settings: brokerage-wide admins only. */
export const BROKERAGE = rule([401, 403, 403, OK, OK], BROKERAGE_ONLY);
export const OWNER = rule([401, 403, 403, 403, OK]);
/** North's own settings: brokerage-wide admins change them; South's admin does not find North. */
export const NORTH_SETTINGS = rule([401, 403, 403, OK, OK], { officeAdminOwn: 403, officeAdminOther: 404 });
/** An office of neither office admin (an empty one): not there for either. */
export const OTHER_OFFICE = rule([401, 403, 403, OK, OK], { officeAdminOwn: 404, officeAdminOther: 404 });
/** A user placed in North: an office admin places users in its own office only (403). */
export const NEW_IN_NORTH = rule([401, 403, 403, OK, OK], { officeAdminOther: 403 });
/** A's transactions through the paths naming A's id: A, A's coordinator, the admins reaching A. */
export const DEALS_OF_A = rule([401, OK, 403, OK, OK], CROSS_OFFICE);
/** A's transactions by their own id: anyone else finds nothing there. */
export const A_OR_ADMINS_BY_ID = rule([401, OK, 404, OK, OK], CROSS_OFFICE);
/** A's profile, read: A, A's coordinator (whose lists name A), the admins reaching A. */
export const PROFILE_OF_A = rule([401, OK, 403, OK, OK], CROSS_OFFICE);
/** What is personal to A (changing the profile, notifications, their settings): A and the admins reaching A. */
export const PERSONAL_OF_A = rule([401, OK, 403, OK, OK], { ...CROSS_OFFICE, coordinatorOwn: 403 });
/** Needs A's own current password: nobody else, decided before any lookup. */
export const ONLY_A = rule([401, OK, 403, 403, 403], { coordinatorOwn: 403 });
/** A deal opened in A's name: A, or A's coordinator for A. */
export const OPEN_FOR_A = rule([401, OK, 403, 403, 403]);
export const PRIVATE_TO_A = rule([401, OK, 404, 404, 404], { coordinatorOwn: 404 });
