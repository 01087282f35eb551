import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The Ed25519 key closed files' archives are signed with: ARCHIVE_SIGNING_KEY (PKCS#8 PEM), or
 * else one generated on first use and kept in DATA_DIR, so every archive an installation seals
 * verifies with one public key.
 */

export const ARCHIVE_SIGNATURE_ALGORITHM = 'Ed25519';
/** Kept beside the JWT secret and the e-signature certificate. */
export const GENERATED_ARCHIVE_KEY_FILE = 'archive-signing-key.pem';

export type ArchiveKey = { privateKey: KeyObject; publicKeyPem: string };

/** A key that cannot sign archives: the message names the setting or file to fix. */
export class ArchiveKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveKeyError';
  }
}

export function archiveKeyOfPem(pem: string, source: string): ArchiveKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ArchiveKeyError(`${source} is not a readable unencrypted private key in PEM (PKCS#8)`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new ArchiveKeyError(`${source} is not an Ed25519 key (openssl genpkey -algorithm ed25519)`);
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  return { privateKey, publicKeyPem };
}

/** ARCHIVE_SIGNING_KEY when set; else the key kept in dataDir, generated there the first time. */
export async function loadArchiveKey(options: { keyPem?: string; dataDir: string }): Promise<ArchiveKey> {
  if (options.keyPem) return archiveKeyOfPem(options.keyPem, 'ARCHIVE_SIGNING_KEY');
  const file = path.join(options.dataDir, GENERATED_ARCHIVE_KEY_FILE);
  const kept = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  // A damaged file is reported rather than replaced: archives already sealed name its public key.
  if (kept !== null) return archiveKeyOfPem(kept, `${file} (remove it to generate a new key)`);
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await mkdir(options.dataDir, { recursive: true });
  // Written whole under another name, then linked into place: a crash never leaves half a key,
  // and of two instances starting on one DATA_DIR the first link wins and both use its key.
  const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(partial, pem, { mode: 0o600 });
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return archiveKeyOfPem(await readFile(file, 'utf8'), file);
  } finally {
    await unlink(partial).catch(() => {});
  }
  return archiveKeyOfPem(pem, file);
}

/** manifest.sig: the base64 Ed25519 signature of manifest.json's exact bytes. */
export function signManifest(key: ArchiveKey, manifest: Buffer): string {
  return sign(null, manifest, key.privateKey).toString('base64');
}
