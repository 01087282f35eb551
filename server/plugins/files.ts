import type { FastifyPluginAsync } from 'fastify';
import parseRange from 'range-parser';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { AppError, errorBody } from '../errors';
import { downloadHeadersOfKey } from '../storage/file-types';
import { isValidKey, keyFromLink } from '../storage/keys';
import { fileSigningKey, verifyFileSignature } from '../storage/signed-urls';
import type { ByteRange } from '../storage/storage';

/** The 416's message: the Range names no byte of the file. */
const RANGE_NOT_SATISFIABLE = 'The requested range is not satisfiable';

/**
 * Whether a Range header asks for one range of bytes. Anything else (several ranges, another
 * unit, a syntax error, a last position before the first) is ignored and the whole file sent, as
 * RFC 9110 (14.2) allows, so nothing a client writes there can turn into an error. Against a
 * file of endless size every well-formed range names bytes: this reads the header alone, before
 * the store is asked the file's size.
 */
function asksOneRange(header: string | undefined): header is string {
  if (header === undefined) return false;
  const ranges = parseRange(Number.POSITIVE_INFINITY, header);
  return Array.isArray(ranges) && ranges.length === 1 && ranges.type.trim().toLowerCase() === 'bytes';
}

/** `bytes=-n` with n above 0. */
const NON_EMPTY_SUFFIX = /=\s*-\s*0*[1-9]\d*\s*$/;

/**
 * The bytes of a file of `size` bytes that the one range asked names, a last position past the
 * end stopping at the end; 'unsatisfiable' (416) when it names none of them. range-parser finds
 * a suffix longer than the file unsatisfiable, where RFC 9110 (14.1.2) makes it the whole file.
 */
function rangeOf(header: string, size: number): ByteRange | 'unsatisfiable' {
  const ranges = parseRange(size, header);
  if (Array.isArray(ranges) && ranges[0]) return ranges[0];
  return size > 0 && NON_EMPTY_SUFFIX.test(header) ? { start: 0, end: size - 1 } : 'unsatisfiable';
}

/**
 * GET /files/<key>?exp=&sig= : the local driver's signed download links.
 * No bearer token: the signature is the permission, so "View" works in a new tab. The type sent
 * is the one sniffed at upload (kept as the key's extension) and browsers may not second-guess it.
 * A single Range is served as a 206 of exactly those bytes, read from the store as a stream
 * (pdf.js shows the first page of a large PDF from a few 64 KiB parts). Neither answer is
 * compressed: the compression plugin leaves streams alone.
 */
export const fileRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const signingKey = fileSigningKey(deps.config.jwtSecret);

  app.get('/files/*', { schema: { hide: true } }, async (req, reply) => {
    const key = keyFromLink((req.params as { '*': string })['*'] ?? '');
    if (!isValidKey(key)) throw new AppError('NOT_FOUND', apiMessages.notFound);
    const { exp, sig } = req.query as { exp?: string; sig?: string };
    const verdict = verifyFileSignature(
      signingKey,
      key,
      exp,
      sig,
      Math.floor(deps.clock.now().getTime() / 1000),
    );
    if (verdict === 'invalid') throw new AppError('FORBIDDEN', apiMessages.forbidden);
    if (verdict === 'expired') throw new AppError('FORBIDDEN', apiMessages.linkExpired);

    // Every answer says ranges work, so a reader (pdf.js) knows after the first one it may ask.
    reply.header('accept-ranges', 'bytes');
    // A HEAD has no bytes to part. If-Range asks for the part only if the file is still the one
    // the client saw, judged by an ETag or a date this route never sends: the whole file it is.
    const header =
      req.method === 'GET' && req.headers['if-range'] === undefined ? req.headers.range : undefined;
    const { contentType, contentDisposition } = downloadHeadersOfKey(key);
    const fileHeaders = {
      'content-type': contentType,
      'x-content-type-options': 'nosniff',
      'content-disposition': contentDisposition,
    };

    if (!asksOneRange(header)) {
      const file = await deps.storage.open(key);
      if (!file) throw new AppError('NOT_FOUND', apiMessages.notFound);
      return reply.headers(fileHeaders).header('content-length', file.size).send(file.body);
    }

    const size = await deps.storage.size(key);
    if (size === null) throw new AppError('NOT_FOUND', apiMessages.notFound);
    const range = rangeOf(header, size);
    // The API has no error code of its own for a 416: like a 400, it is the client's mistake.
    if (range === 'unsatisfiable')
      return reply
        .code(416)
        .header('content-range', `bytes */${size}`)
        .send(errorBody('BAD_REQUEST', RANGE_NOT_SATISFIABLE, 'range-not-satisfiable'));
    const file = await deps.storage.open(key, { range });
    if (!file) throw new AppError('NOT_FOUND', apiMessages.notFound);
    return reply
      .code(206)
      .headers(fileHeaders)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(file.body);
  });
};
