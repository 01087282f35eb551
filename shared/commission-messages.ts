/**
 * The words of commission plans, splits and CDAs. A module of its own, not messages.ts:
 * messages.ts travels in the first download of every visit, which has a budget
 * (scripts/check-bundle-budget.mjs), while only the server and lazy pages read these.
 */

/** Commission plans and a transaction's commission. The ones docs/API.md quotes are part of the API. */
export const commissionMessages = {
  nameRequired: 'Plan name is required',
  nameTaken: 'A commission plan with this name already exists',
  unknownPlan: 'There is no such commission plan',
  needsSalePrice: 'Set the sale price first',
  grossOrRate: 'Give exactly one of grossCommissionCents and ratePercent',
  threeDecimals: 'At most 3 decimals',
  needsCommission: 'Set the commission first',
  overrideReasonRequired: 'Give the reason for the override',
  overrideBrokerageWide: 'Only a brokerage-wide admin can override compliance',
  needsPlan: 'Give the agent a commission plan first',
  cdaPaidAlready: 'This CDA is paid already',
  cdaSuperseded: 'This CDA was superseded by a later version',
  cdaPaidCannotReplace: "This transaction's CDA is paid: it cannot be replaced",
  paidAtFuture: 'The payment date cannot be in the future',
  paidBeforeIssued: 'The payment date cannot be before the CDA was issued',
  unknownCda: 'There is no such CDA',
  cdaIssuedNotice: (place: string, version: number) => `CDA issued for ${place} (version ${version})`,
  cdaPaidNotice: (place: string, version: number) => `CDA paid for ${place} (version ${version})`,
} as const;
