import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { PUBLIC } from '../rest/openapi';
import type { ServiceContext } from '../services/context';
import { signingDocument } from '../services/esign/signing';
import { signingIdentityOf } from '../services/esign/signing-identity';

/**
 * The public signing surface's two answers that are not JSON:
 *
 * - GET /api/sign/<token>/document: the PDF being signed (the version the request was sent
 *   with), for that link only, inline; the same refusals as GET /api/sign/<token> (404, 409, 429).
 * - GET /api/sign/certificate: the instance's signing certificate (PEM), to check a signed file's
 *   signature against. A static segment, so it wins over `/api/sign/{token}`.
 *
 * Not procedures' REST paths: they answer bytes, not a procedure's JSON. Public, so no API key
 * scope applies. Registered inside the REST plugin, so the OpenAPI document lists them.
 */

export const signingRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const contextOf = (req: { id: string; ip: string }): ServiceContext => ({
    deps,
    db: deps.db,
    ip: req.ip,
    requestId: req.id,
    log: app.log,
  });

  app.get(
    '/api/sign/:token/document',
    {
      schema: {
        summary: 'The PDF a signing link asks to sign (no account: the token is the credential)',
        description:
          'The document as it was sent for signature, inline. 404 for a token nobody holds, 409 `This ' +
          'signature request is closed` once completed, voided or declined.',
        tags: ['signatures'],
        params: z.object({ token: z.string() }),
        operationId: 'signaturesDocument',
        security: PUBLIC,
        'x-errors': [404, 409, 429],
        response: {
          200: { description: 'The PDF', content: { 'application/pdf': { schema: z.string() } } },
        },
      },
    },
    async (req, reply) => {
      const { token } = req.params as { token: string };
      if (token.length > 200) throw new AppError('NOT_FOUND', apiMessages.notFound);
      const file = await signingDocument(contextOf(req), { token });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(file.size))
        .header('content-disposition', 'inline; filename="document.pdf"')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  app.get(
    '/api/sign/certificate',
    {
      schema: {
        summary: "The certificate that signs completed documents (PEM), to verify a signed file's signature",
        description: 'Public, no session: anyone holding a signed document may check who signed it.',
        tags: ['signatures'],
        operationId: 'signaturesCertificate',
        security: PUBLIC,
        'x-errors': [429],
        'x-examples': { response: '-----BEGIN CERTIFICATE-----\nMIIC...\n-----END CERTIFICATE-----\n' },
        response: {
          200: {
            description: 'The X.509 certificate, PEM-encoded',
            content: { 'application/x-pem-file': { schema: z.string() } },
          },
        },
      },
    },
    async (_req, reply) => {
      const identity = await signingIdentityOf(deps);
      return reply
        .header('content-type', 'application/x-pem-file')
        .header('content-disposition', 'inline; filename="signing-certificate.pem"')
        .send(identity.certificatePem);
    },
  );
};
