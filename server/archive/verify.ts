import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ArchivedAuditEvent, auditEventHash } from './canonical-json';
import {
  type ArchiveManifest,
  AUDIT_JSON_PATH,
  archiveManifest,
  MANIFEST_PATH,
  SIGNATURE_PATH,
} from './manifest';

/**
 * Checks an archive with nothing but its bytes and the installation's public key: the manifest's
 * signature, every listed entry's sha256 and size, no entry unlisted, and the audit trail's
 * hashes and links. One module for the POST /api/archive/verify endpoint and
 * scripts/verify-archive.ts, so both say the same thing of the same file.
 */

export type ArchiveVerdict = { valid: boolean; problems: string[] };

/** The file is not a zip at all (or one too damaged to list): nothing in it can be checked. */
export class NotAnArchiveError extends Error {
  constructor(message = 'The file is not a zip archive') {
    super(message);
    this.name = 'NotAnArchiveError';
  }
}

/** The public key given cannot check a signature. */
export class PublicKeyError extends Error {
  constructor(message = 'The public key is not an Ed25519 public key in PEM (SPKI)') {
    super(message);
    this.name = 'PublicKeyError';
  }
}

/** Entries read whole (the rest are hashed as they stream): each has a ceiling. */
const READ_WHOLE_LIMITS: Record<string, number> = {
  [MANIFEST_PATH]: 16 * 1024 * 1024,
  [SIGNATURE_PATH]: 4 * 1024,
  [AUDIT_JSON_PATH]: 256 * 1024 * 1024,
};

export type VerifyOptions = {
  /** The most an archive may unpack to (a zip bomb is refused before it is inflated). */
  maxUnpackedBytes?: number;
};

type Seen = { sha256: string; bytes: number; content?: Buffer };

export function publicKeyOf(pem: string): KeyObject {
  try {
    const key = createPublicKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType !== 'ed25519') throw new PublicKeyError();
    return key;
  } catch {
    throw new PublicKeyError();
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) reject(new NotAnArchiveError());
      else resolve(zip);
    });
  });
}

/** Every entry's sha256 and size (and the bytes of the few read whole), in the zip's order. */
async function readEntries(
  file: string,
  options: VerifyOptions,
  problems: string[],
): Promise<Map<string, Seen>> {
  const zip = await openZip(file);
  const seen = new Map<string, Seen>();
  let unpacked = 0;
  const maxUnpacked = options.maxUnpackedBytes ?? Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      reject(
        error instanceof NotAnArchiveError ? error : new NotAnArchiveError('The zip archive is damaged'),
      );
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(seen));
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/')) return zip.readEntry();
      if (seen.has(name)) problems.push(`${name} appears more than once`);
      unpacked += entry.uncompressedSize;
      if (unpacked > maxUnpacked) {
        zip.close();
        return reject(new NotAnArchiveError('The zip archive unpacks to more than this server checks'));
      }
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) {
          problems.push(`${name} cannot be read`);
          return zip.readEntry();
        }
        hashEntry(stream, READ_WHOLE_LIMITS[name]).then((result) => {
          if (result) seen.set(name, result);
          else problems.push(`${name} cannot be read`);
          zip.readEntry();
        }, fail);
      });
    });
    zip.readEntry();
  });
}

/** The stream's sha256 and size; its bytes too when `keepUpTo` is given (null past it, or on a read error). */
async function hashEntry(stream: Readable, keepUpTo?: number): Promise<Seen | null> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (keepUpTo !== undefined) {
        if (bytes > keepUpTo) return null;
        kept.push(chunk);
      }
    }
  } catch {
    return null;
  }
  return {
    sha256: hash.digest('hex'),
    bytes,
    ...(keepUpTo !== undefined && { content: Buffer.concat(kept) }),
  };
}

function parseJson(bytes: Buffer | undefined): unknown {
  if (!bytes) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function checkSignature(seen: Map<string, Seen>, key: KeyObject, problems: string[]): void {
  const manifest = seen.get(MANIFEST_PATH)?.content;
  const signature = seen.get(SIGNATURE_PATH)?.content;
  if (!manifest) problems.push(`${MANIFEST_PATH} is missing`);
  if (!signature) problems.push(`${SIGNATURE_PATH} is missing`);
  if (!manifest || !signature) return;
  const text = signature.toString('ascii').trim();
  let valid = false;
  try {
    valid = /^[A-Za-z0-9+/]+={0,2}$/.test(text) && verify(null, manifest, key, Buffer.from(text, 'base64'));
  } catch {
    // A signature of the wrong length: it matches nothing.
  }
  if (!valid) problems.push(`${SIGNATURE_PATH} does not match`);
}

function checkFiles(seen: Map<string, Seen>, manifest: ArchiveManifest, problems: string[]): void {
  const listed = new Set<string>();
  for (const file of manifest.files) {
    listed.add(file.path);
    const entry = seen.get(file.path);
    if (!entry) problems.push(`${file.path} is missing`);
    else if (entry.sha256 !== file.sha256) problems.push(`${file.path} does not match its sha256`);
    else if (entry.bytes !== file.bytes) problems.push(`${file.path} does not match its size`);
  }
  for (const name of seen.keys()) {
    if (name !== MANIFEST_PATH && name !== SIGNATURE_PATH && !listed.has(name))
      problems.push(`${name} is not listed in ${MANIFEST_PATH}`);
  }
}

const isEvent = (value: unknown): value is ArchivedAuditEvent => {
  const event = value as Partial<ArchivedAuditEvent> | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    Number.isSafeInteger(event.seq) &&
    typeof event.prevHash === 'string' &&
    typeof event.hash === 'string'
  );
};

/** Each event's hash recomputed; consecutive events (seq n, n+1) linked; auditHash the last one's. */
function checkAudit(seen: Map<string, Seen>, manifest: ArchiveManifest, problems: string[]): void {
  const events = parseJson(seen.get(AUDIT_JSON_PATH)?.content);
  if (events === undefined) {
    if (seen.has(AUDIT_JSON_PATH)) problems.push(`${AUDIT_JSON_PATH} is not readable JSON`);
    else if (!manifest.files.some((file) => file.path === AUDIT_JSON_PATH))
      problems.push(`${AUDIT_JSON_PATH} is missing`);
    return;
  }
  if (!Array.isArray(events) || !events.every(isEvent)) {
    problems.push(`${AUDIT_JSON_PATH} is not a list of audit events`);
    return;
  }
  let previous: ArchivedAuditEvent | undefined;
  for (const event of events) {
    if (previous && event.seq <= previous.seq)
      problems.push(`${AUDIT_JSON_PATH} event ${event.seq} is out of order`);
    else if (previous && event.seq === previous.seq + 1 && event.prevHash !== previous.hash)
      problems.push(`${AUDIT_JSON_PATH} event ${event.seq} does not link to event ${previous.seq}`);
    let hash: string | null;
    try {
      hash = auditEventHash(event);
    } catch {
      hash = null;
    }
    if (hash !== event.hash) problems.push(`${AUDIT_JSON_PATH} event ${event.seq} does not match its hash`);
    previous = event;
  }
  const last = events.at(-1)?.hash ?? null;
  if (manifest.auditHash !== last)
    problems.push(`${MANIFEST_PATH} auditHash is not the hash of the last event in ${AUDIT_JSON_PATH}`);
}

/** Checks the zip at `file` against `publicKeyPem`; throws NotAnArchiveError or PublicKeyError. */
export async function verifyArchive(
  file: string,
  publicKeyPem: string,
  options: VerifyOptions = {},
): Promise<ArchiveVerdict> {
  const key = publicKeyOf(publicKeyPem);
  const problems: string[] = [];
  const seen = await readEntries(file, options, problems);
  checkSignature(seen, key, problems);
  const parsed = archiveManifest.safeParse(parseJson(seen.get(MANIFEST_PATH)?.content));
  if (seen.has(MANIFEST_PATH) && !parsed.success) problems.push(`${MANIFEST_PATH} is not a valid manifest`);
  if (parsed.success) {
    checkFiles(seen, parsed.data, problems);
    checkAudit(seen, parsed.data, problems);
  }
  return { valid: problems.length === 0, problems };
}
