import { PagePlaceholder } from '../components/PagePlaceholder';

/** Every user's transactions, for admins (spec section 2, /adminTransactions). */
export function AdminTransactions() {
  return <PagePlaceholder title="Admin Transactions" arrivesWith="the admin transactions list" />;
}
