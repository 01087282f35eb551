import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveKeyError, GENERATED_ARCHIVE_KEY_FILE, loadArchiveKey } from './signing-key';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'archive-key-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the archive signing key', () => {
  it('is generated once into DATA_DIR, readable by its owner only, and reused', async () => {
    const first = await loadArchiveKey({ dataDir });
    const file = path.join(dataDir, GENERATED_ARCHIVE_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const again = await loadArchiveKey({ dataDir });
    expect(again.publicKeyPem).toBe(first.publicKeyPem);
    expect(first.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('is ARCHIVE_SIGNING_KEY when set, and refuses a key that is not Ed25519', async () => {
    const pair = generateKeyPairSync('ed25519');
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const key = await loadArchiveKey({ keyPem: pem, dataDir });
    expect(key.publicKeyPem).toBe(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await expect(loadArchiveKey({ keyPem: rsa, dataDir })).rejects.toThrow(ArchiveKeyError);
  });
});
