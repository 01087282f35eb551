import { auditChainAnswer } from '../../shared/schemas/audit';
import * as auditChain from '../services/audit-chain';
import { adminProcedure, router } from '../trpc/init';
import examples from './audit.examples.json';

/** The audit trail as a whole: its hash chain, checked. */
export const auditRouter = router({
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
