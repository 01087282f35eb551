import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipOf } from '../test/zip-files';
import { manifestBytes } from './manifest';
import { signManifest } from './signing-key';
import { NotAnArchiveError, PublicKeyError, verifyArchive } from './verify';

/** The verifier on zips made here: no database, as the command line runs it. */

const pair = generateKeyPairSync('ed25519');
const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const key = { privateKey: pair.privateKey, publicKeyPem: publicKey };
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'archive-verify-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function written(name: string, bytes: Buffer): Promise<string> {
  const file = path.join(folder, name);
  await writeFile(file, bytes);
  return file;
}

async function archiveWith(entries: Record<string, string>, signature?: string): Promise<string> {
  const files = Object.entries(entries).map(([name, text]) => ({
    path: name,
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes: Buffer.byteLength(text),
  }));
  const manifest = manifestBytes({
    transactionId: 't',
    closedAt: '2026-12-01T00:00:00.000Z',
    sealedAt: '2026-12-01T00:00:01.000Z',
    files,
    auditHash: null,
  });
  const zip = await zipOf(
    new Map([
      ...Object.entries(entries).map(([name, text]): [string, Buffer] => [name, Buffer.from(text)]),
      ['manifest.json', manifest],
      ['manifest.sig', Buffer.from(signature ?? signManifest(key, manifest))],
    ]),
  );
  return written(`${Math.random()}.zip`, zip);
}

describe('verifyArchive', () => {
  it('accepts an archive whose manifest is signed and whose files match', async () => {
    const file = await archiveWith({ 'audit.json': '[]', 'documents/a.pdf': '%PDF-1.4' });
    expect(await verifyArchive(file, publicKey)).toEqual({ valid: true, problems: [] });
  });

  it('names a signature of the wrong length or of another key', async () => {
    const short = await archiveWith({ 'audit.json': '[]' }, 'AAAA');
    expect((await verifyArchive(short, publicKey)).problems).toEqual(['manifest.sig does not match']);
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const signed = await archiveWith({ 'audit.json': '[]' });
    expect((await verifyArchive(signed, other)).problems).toEqual(['manifest.sig does not match']);
  });

  it('refuses what is not a zip, and a key that is not an Ed25519 public key', async () => {
    const text = await written('not.zip', Buffer.from('%PDF-1.4 not a zip'));
    await expect(verifyArchive(text, publicKey)).rejects.toThrow(NotAnArchiveError);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    await expect(verifyArchive(text, rsa)).rejects.toThrow(PublicKeyError);
  });

  it('refuses a zip that unpacks to more than allowed before inflating it', async () => {
    const file = await archiveWith({ 'audit.json': '[]', 'documents/big.txt': 'x'.repeat(10_000) });
    await expect(verifyArchive(file, publicKey, { maxUnpackedBytes: 1_000 })).rejects.toThrow(
      NotAnArchiveError,
    );
  });
});
