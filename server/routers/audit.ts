import { auditChainAnswer, auditLogInput, auditLogPage } from '../../shared/schemas/audit';
import * as auditChain from '../services/audit-chain';
import * as auditLog from '../services/audit-log';
import { adminProcedure, router } from '../trpc/init';
import examples from './audit.examples.json';

/** The audit trail as a whole: its events, filtered, and its hash chain, checked. */
export const auditRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/audit',
        summary:
          'The audit trail, newest first, filtered by actorId, entity, entityId, action, transactionId and a from/to range; keyset pages by cursor (brokerage-wide admins)',
        tag: 'audit',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(auditLogInput)
    .output(auditLogPage)
    .query(({ ctx, input }) => auditLog.listForAdmin(ctx, input)),

  verify: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/audit/verify',
        summary:
          'Recompute the audit hash chain: valid, how many events, and the first event whose link or hash does not match (brokerage-wide admins)',
        tag: 'audit',
        scope: 'personal',
        examples: examples.verify,
      },
    })
    .output(auditChainAnswer)
    .query(({ ctx }) => auditChain.verifyForAdmin(ctx)),
});
