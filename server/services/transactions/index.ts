/**
 * Transactions, their checklist forms and the conversation on each form, by concern:
 * pages.ts (lists and searches, hand-written SQL), records.ts (a transaction as a whole),
 * forms.ts (files, comments, reviews); access.ts holds the ownership rule, mappers.ts the rows
 * and answers, notify.ts who hears of a change.
 */
export { assertVisible } from './access';
export { addComment, decideWaiver, listVersions, requestWaiver, review, setFormFile } from './forms';
export { listAll, listForUser, searchAll, searchForUser } from './pages';
export {
  close,
  createTransaction,
  getAny,
  getForUser,
  history,
  reopen,
  softDelete,
  updateAny,
  updateForUser,
} from './records';
export { setLegalHold } from './retention';
export { bulkAccept, reviewQueue } from './review-queue';
