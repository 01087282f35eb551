import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { PasskeyAnswer, RegisterVerifyInput } from '../../../shared/schemas/passkeys';
import { Prisma } from '../../db/generated/client';
import { AppError } from '../../errors';
import { recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { queueMail } from '../mail';
import { lastPasskeyRemovedMessage } from './passkey-mail';
import { relyingPartyOf } from './relying-party';
import { storeChallenge, takeChallenge } from './webauthn-challenges';
import { challengeOf, toWebAuthnResponse, userHandleOf } from './webauthn-responses';

/**
 * A signed-in user's passkeys: adding one (the registration ceremony), the list, renaming and
 * removing. Every operation is on the caller's own passkeys only: another user's id is not
 * found, admins included (a passkey is as personal as a password).
 */

const CEREMONY_TIMEOUT_MS = 60_000;
const DEFAULT_NAME = 'Passkey';

const passkeySelect = { id: true, name: true, createdAt: true, lastUsedAt: true } as const;

function toAnswer(row: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): PasskeyAnswer {
  return {
    _id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

const notFound = () => new AppError('NOT_FOUND', passkeyMessages.notFound);
const registrationFailed = () => new AppError('BAD_REQUEST', passkeyMessages.registrationFailed);

/** The options navigator.credentials.create needs; the challenge is stored for the caller. */
export async function registrationOptions(ctx: CallerContext) {
  const { deps } = ctx;
  const rp = relyingPartyOf(deps.config);
  const user = await ctx.db.user.findUniqueOrThrow({
    where: { id: ctx.user.id },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      passkeys: { select: { credentialId: true, transports: true } },
    },
  });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`,
    userID: userHandleOf(user.id),
    attestationType: 'none',
    timeout: CEREMONY_TIMEOUT_MS,
    // The same authenticator twice would be one passkey under two names.
    excludeCredentials: user.passkeys.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports as AuthenticatorTransportFuture[],
    })),
    // Discoverable, so sign-in needs no e-mail typed first; verified (PIN or biometrics), so the
    // passkey alone is two factors.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(ctx.db, deps.clock.now(), {
    purpose: 'register',
    challenge: options.challenge,
    userId: user.id,
  });
  return options;
}

type AuthenticatorTransportFuture = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Checks the authenticator's answer to the caller's challenge and keeps the new passkey. */
export async function registerPasskey(
  ctx: CallerContext,
  input: RegisterVerifyInput,
): Promise<PasskeyAnswer> {
  const { deps } = ctx;
  const rp = relyingPartyOf(deps.config);
  const challenge = challengeOf(input.response.response.clientDataJSON);
  const expected = await takeChallenge(ctx.db, deps.clock.now(), {
    purpose: 'register',
    challenge,
    userId: ctx.user.id,
  });
  if (expected === null) throw new AppError('BAD_REQUEST', passkeyMessages.challengeExpired);

  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: toWebAuthnResponse(input.response),
      expectedChallenge: expected,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    ctx.log.warn(
      { event: 'passkey', outcome: 'registration-refused', reason: reasonOf(error) },
      'passkey refused',
    );
    throw registrationFailed();
  }
  const info = verification.registrationInfo;
  // The id the answer names must be the credential the authenticator data carries.
  if (!verification.verified || !info || info.credential.id !== input.response.id) throw registrationFailed();

  try {
    return await ctx.db.$transaction(async (tx) => {
      const row = await tx.passkey.create({
        data: {
          userId: ctx.user.id,
          credentialId: info.credential.id,
          publicKey: new Uint8Array(info.credential.publicKey),
          counter: BigInt(info.credential.counter),
          transports: info.credential.transports ?? [],
          name: input.name ?? DEFAULT_NAME,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          createdAt: deps.clock.now(),
        },
        select: passkeySelect,
      });
      await recordAudit(tx, {
        actorId: ctx.user.id,
        action: 'user.passkey-add',
        entity: 'User',
        entityId: ctx.user.id,
        after: { passkey: { _id: row.id, name: row.name } },
      });
      return toAnswer(row);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('CONFLICT', passkeyMessages.alreadyRegistered);
    }
    throw error;
  }
}

/** What a verification error says, for the log only (never the answer). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown';
}

export async function listPasskeys(ctx: CallerContext): Promise<{ items: PasskeyAnswer[] }> {
  const rows = await ctx.db.passkey.findMany({
    where: { userId: ctx.user.id },
    select: passkeySelect,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { items: rows.map(toAnswer) };
}

export async function renamePasskey(
  ctx: CallerContext,
  input: { id: string; name: string },
): Promise<PasskeyAnswer> {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.passkey.findFirst({
      where: { id: input.id, userId: ctx.user.id },
      select: passkeySelect,
    });
    if (!before) throw notFound();
    const after = await tx.passkey.update({
      where: { id: input.id },
      data: { name: input.name },
      select: passkeySelect,
    });
    await recordAudit(tx, {
      actorId: ctx.user.id,
      action: 'user.passkey-rename',
      entity: 'User',
      entityId: ctx.user.id,
      before: { passkey: { _id: before.id, name: before.name } },
      after: { passkey: { _id: after.id, name: after.name } },
    });
    return toAnswer(after);
  });
}

/**
 * Removes one of the caller's passkeys. The last one needs the password too (whoever holds an
 * open session must not strip the account of its strongest sign-in), and the user is mailed;
 * every removal is audited.
 */
export async function removePasskey(
  ctx: CallerContext,
  input: { id: string; password?: string | undefined },
): Promise<void> {
  const { deps } = ctx;
  const userId = ctx.user.id;
  const user = await ctx.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      email: true,
      firstName: true,
      passwordHash: true,
      passkeys: { select: { id: true, name: true } },
    },
  });
  const target = user.passkeys.find((passkey) => passkey.id === input.id);
  if (!target) throw notFound();
  const needsPassword = (count: number) => count === 1;
  // Hashed before the transaction: argon2 waits on the thread pool, and a transaction waiting
  // there would hold a pooled connection.
  let passwordProven = false;
  if (needsPassword(user.passkeys.length)) {
    if (input.password === undefined) throw passwordError(passkeyMessages.passwordForLast);
    if (!(await deps.passwords.verify(user.passwordHash, input.password))) {
      throw passwordError(passkeyMessages.wrongPassword);
    }
    passwordProven = true;
  }
  await ctx.db.$transaction(async (tx) => {
    // The user's row locked, two removals at once cannot both see another passkey left.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
    const count = await tx.passkey.count({ where: { userId } });
    const last = needsPassword(count);
    if (last && !passwordProven) throw passwordError(passkeyMessages.passwordForLast);
    const removed = await tx.passkey.deleteMany({ where: { id: target.id, userId } });
    if (removed.count !== 1) throw notFound();
    await recordAudit(tx, {
      actorId: userId,
      action: last ? 'user.passkey-remove-last' : 'user.passkey-remove',
      entity: 'User',
      entityId: userId,
      before: { passkey: { _id: target.id, name: target.name } },
    });
    if (last) {
      await queueMail(tx, deps, {
        kind: 'account.passkey-removed',
        userId,
        content: lastPasskeyRemovedMessage({
          to: user.email,
          firstName: user.firstName,
          passkeyName: target.name,
          link: `${deps.config.appUrl}/settings`,
        }),
      });
    }
  });
}

function passwordError(message: string): AppError {
  return new AppError('BAD_REQUEST', message, [{ path: 'password', message }]);
}
