import type { FastifyPluginAsync } from 'fastify';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { downloadHeadersOfKey } from '../storage/file-types';
import { isValidKey, keyFromLink } from '../storage/keys';
import { fileSigningKey, verifyFileSignature } from '../storage/signed-urls';

/**
 * GET /files/<key>?exp=&sig= : the local driver's signed download links (DESIGN.md section 6).
 * No bearer token: the signature is the permission, so "View" works in a new tab. The type sent
 * is the one sniffed at upload (kept as the key's extension) and browsers may not second-guess it.
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

    const file = await deps.storage.open(key);
    if (!file) throw new AppError('NOT_FOUND', apiMessages.notFound);
    const { contentType, contentDisposition } = downloadHeadersOfKey(key);
    return reply
      .header('content-type', contentType)
      .header('content-length', file.size)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', contentDisposition)
      .send(file.body);
  });
};
