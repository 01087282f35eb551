import { PagePlaceholder } from '../components/PagePlaceholder';

/** An admin's view of one transaction (spec section 2, /adminTransactions/transactions/:id). */
export function AdminTransaction() {
  return <PagePlaceholder title="Transaction" arrivesWith="the admin transaction review" />;
}
