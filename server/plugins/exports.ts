import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { auditExportInput } from '../../shared/schemas/audit';
import { payoutsInput } from '../../shared/schemas/commission';
import { apiError } from '../../shared/schemas/common';
import {
  type ExportPlan,
  reviewQueueExportInput,
  transactionsExportInput,
  usersExportInput,
} from '../../shared/schemas/exports';
import type { AppDeps } from '../deps';
import { BEARER, type OperationFacts } from '../rest/openapi';
import { assertKeyMayCall, type PathScope, scopeOfRoute } from '../rest/scopes';
import {
  AUDIT_COLUMNS,
  openCsvExport,
  PAYOUT_COLUMNS,
  REVIEW_QUEUE_COLUMNS,
  TRANSACTION_COLUMNS,
  USER_COLUMNS,
} from '../services/exports';
import { contextOfRequest } from '../trpc/context';
import { callProcedure } from '../trpc/internals';
import { appRouter } from '../trpc/router';

/**
 * The CSV exports: GET /api/admin/transactions.csv, /api/admin/review-queue.csv,
 * /api/users.csv, /api/admin/payouts.csv and /api/admin/audit.csv. The transport only: who may and the filter are settled by a procedure
 * (server/routers/exports.ts) before a byte is sent, what a row is by server/services/exports.ts,
 * whose stream is sent as it comes (Fastify destroys it when the client goes away, which closes
 * the COPY). Not a procedure's REST path: the answer is a stream of text/csv, not a procedure's JSON.
 * Registered inside the REST plugin, so the OpenAPI document lists them.
 */

type ExportKind = ExportPlan['kind'];

/** The procedure (server/routers/exports.ts) that plans each export. */
const PLAN_PROCEDURES: Record<ExportKind, string> = {
  transactions: 'exports.transactions',
  'review-queue': 'exports.reviewQueue',
  users: 'exports.users',
  payouts: 'exports.payouts',
  audit: 'exports.audit',
};

/**
 * The one place an export request is authenticated and authorized: the bearer token as every
 * /api route reads it, then the export's procedure (adminProcedure: 401, 403 and 400 with the
 * house's bodies). Anything else an export should require (an API key's scope) belongs here or
 * in those procedures.
 */
async function authorizeExport(deps: AppDeps, req: FastifyRequest, kind: ExportKind) {
  const ctx = await contextOfRequest(deps, req, { acceptsApiKeys: true });
  // An API key needs the path's scope (its x-api-key-scope below), as on every /api path.
  assertKeyMayCall(ctx, scopeOfRoute(req));
  const path = PLAN_PROCEDURES[kind];
  // Called as every transport calls a procedure; its .output() has checked the plan's shape.
  const plan = (await callProcedure({
    router: appRouter,
    path,
    type: 'query',
    ctx,
    input: req.query ?? {},
  })) as ExportPlan;
  return { ctx, plan };
}

const csvAnswer = (columns: readonly string[]) => ({
  200: {
    description: `text/csv; charset=utf-8 (RFC 4180, CRLF), attachment. Header row: ${columns.join(',')}`,
    content: { 'text/csv': { schema: z.string() } },
  },
  // 503 when too many exports run already; the finishing pass names it (rest/openapi.ts).
  '5XX': apiError,
});

const DESCRIPTION =
  'Every matching row, streamed (not paged), after a header row. Cells starting with = + - @, a tab ' +
  "or a carriage return are prefixed with `'` so spreadsheets do not run them as formulas. " +
  'Admins only. 503 when too many exports are already running.';

export const exportRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const route = (
    url: string,
    kind: ExportKind,
    operationId: string,
    summary: string,
    querystring: z.ZodType,
    columns: readonly string[],
    scope: PathScope,
    exampleRows = '',
  ) =>
    app.get(
      url,
      {
        schema: {
          ...({
            operationId,
            security: BEARER,
            'x-errors': [400, 401, 403, 429],
            'x-api-key-scope': scope,
            // The header row (and rows, if given), CRLF ends as sent.
            'x-examples': { response: `${columns.join(',')}\r\n${exampleRows}` },
          } satisfies OperationFacts),
          summary,
          description: DESCRIPTION,
          tags: ['exports'],
          querystring,
          response: csvAnswer(columns),
        },
      },
      async (req, reply) => {
        const { ctx, plan } = await authorizeExport(deps, req, kind);
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${plan.filename}"`)
          .header('x-content-type-options', 'nosniff');
        // HEAD (which Fastify routes here too) discards the body: no export is run for it.
        if (req.method === 'HEAD') return reply.send('');
        return reply.send((await openCsvExport(ctx, plan)).stream);
      },
    );

  route(
    '/api/admin/transactions.csv',
    'transactions',
    'exportTransactionsCsv',
    "Every user's transactions as CSV (the admin list's status filter and search query)",
    transactionsExportInput,
    TRANSACTION_COLUMNS,
    'transactions:read',
  );
  route(
    '/api/admin/review-queue.csv',
    'review-queue',
    'exportReviewQueueCsv',
    'The whole review queue as CSV, oldest first (the queue filters type and agentId)',
    reviewQueueExportInput,
    REVIEW_QUEUE_COLUMNS,
    'transactions:read',
  );
  route(
    '/api/users.csv',
    'users',
    'exportUsersCsv',
    'Every account as CSV, newest first (the users list search query)',
    usersExportInput,
    USER_COLUMNS,
    'users:read',
    'e41c8de5-2e89-4ca1-9f7b-ff4a1e41c4d7,Agnes,Agent,agnes@example.com,Acme Realty,' +
      "'+1 555 010 0000,user,active,false,true,2026-11-27T19:24:52.612Z,\r\n",
  );
  route(
    '/api/admin/payouts.csv',
    'payouts',
    'exportPayoutsCsv',
    "The lines of the paid CDAs as CSV, by the UTC day they were paid (`from`, `to` inclusive; default all), oldest first, a CDA's lines in order (referral, brokerage, agent, fee)",
    payoutsInput,
    PAYOUT_COLUMNS,
    'transactions:read',
    '2026-11-20T15:30:00.000Z,0b9c6f1e-7a51-4b0e-9d6e-3f1f6f0f2a11,1,5f0e8a4c-2d3b-4c1a-8e7f-9a0b1c2d3e4f,' +
      '12 Main Street,Springfield,CA,90210,e41c8de5-2e89-4ca1-9f7b-ff4a1e41c4d7,Agnes Agent,North,' +
      'brokerage,Acme Realty,450000,4500.00\r\n',
  );
  route(
    '/api/admin/audit.csv',
    'audit',
    'exportAuditCsv',
    "The audit trail as CSV, newest first (the audit log's filters: actorId, entity, entityId, action, transactionId, from, to); brokerage-wide admins",
    auditExportInput,
    AUDIT_COLUMNS,
    'transactions:read',
    '1,2026-12-09T09:00:00.000Z,admin@example.com,form.review,TransactionForm,' +
      '9d7f0c2a-51e4-4b8e-a0c1-7b3e2f6d4c55,1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9,,,' +
      'b5b2bebe2ca60d8b26a19c49ff47a1a1782401ae192a65bfa1a2b7eae276c33b,' +
      '0000000000000000000000000000000000000000000000000000000000000000,' +
      '"{""status"": ""pending""}","{""status"": ""accepted""}"\r\n',
  );
};
