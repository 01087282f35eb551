import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import {
  type ArchiveManifest,
  MANIFEST_PATH,
  type ManifestFile,
  manifestBytes,
  SIGNATURE_PATH,
} from './manifest';

/**
 * Writes an archive as a stream: each entry is hashed as it passes into the zip, one at a time,
 * so memory holds a few chunks whatever the files' sizes; the manifest, made from those hashes
 * last, and its signature close the zip.
 */

/**
 * A pass-through stream that hashes and counts what flows through it: an entry on its way into
 * the zip, or the zip on its way into storage.
 */
export function hashingTap(): { tap: Transform; sha256: () => string; bytes: () => number } {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { tap, sha256: () => hash.digest('hex'), bytes: () => bytes };
}

/** Documents and PDFs are compressed already: stored as they are, they cost no CPU. */
export type EntryOptions = { compress: boolean };

export class ArchiveWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly listed: ManifestFile[] = [];
  private readonly names = new Set<string>();

  /** Rejects when the zip's output closes before finish(): storage failed or gave up reading. */
  private readonly cutShort: Promise<never>;

  constructor(private readonly mtime: Date) {
    this.cutShort = new Promise<never>((_, reject) => {
      this.output.once('close', () => reject(new Error('The archive output closed early')));
    });
    this.cutShort.catch(() => {});
  }

  /** The zip's bytes, as they are made: pipe them somewhere before adding entries. */
  get output(): Readable {
    return this.zip.outputStream as unknown as Readable;
  }

  get files(): readonly ManifestFile[] {
    return this.listed;
  }

  private claim(path: string): void {
    if (this.names.has(path)) throw new Error(`The archive already holds ${path}`);
    this.names.add(path);
  }

  /** Adds the stream's bytes under `path`; resolves once they have all gone into the zip. */
  async addStream(path: string, source: Readable, options: EntryOptions): Promise<ManifestFile> {
    this.claim(path);
    const { tap, sha256, bytes } = hashingTap();
    this.zip.addReadStreamLazy(path, { compress: options.compress, mtime: this.mtime }, (give) =>
      give(null, tap),
    );
    // The next entry is added only once this one is read whole, so the zip never buffers two.
    await Promise.race([Promise.all([pipeline(source, tap), once(tap, 'end')]), this.cutShort]);
    const file = { path, sha256: sha256(), bytes: bytes() };
    this.listed.push(file);
    return file;
  }

  addBuffer(path: string, data: Buffer, options: EntryOptions): ManifestFile {
    this.claim(path);
    this.zip.addBuffer(data, path, { compress: options.compress, mtime: this.mtime });
    const file = { path, sha256: createHash('sha256').update(data).digest('hex'), bytes: data.length };
    this.listed.push(file);
    return file;
  }

  /** Writes manifest.json (listing every entry added) and its signature, and ends the zip. */
  finish(
    facts: Omit<ArchiveManifest, 'files'>,
    sign: (manifest: Buffer) => string,
  ): { manifest: ArchiveManifest; manifestSha256: string } {
    const manifest: ArchiveManifest = { ...facts, files: [...this.listed] };
    const bytes = manifestBytes(manifest);
    this.zip.addBuffer(bytes, MANIFEST_PATH, { compress: true, mtime: this.mtime });
    this.zip.addBuffer(Buffer.from(`${sign(bytes)}\n`, 'ascii'), SIGNATURE_PATH, {
      compress: false,
      mtime: this.mtime,
    });
    this.zip.end();
    return { manifest, manifestSha256: createHash('sha256').update(bytes).digest('hex') };
  }

  /** Gives up: the output stream fails with `error`. */
  abort(error: Error): void {
    this.output.destroy(error);
  }
}
