import { PagePlaceholder } from '../components/PagePlaceholder';

/** The required documents per transaction type and role, for admins (spec section 2). */
export function Templates() {
  return <PagePlaceholder title="Transactions Forms" arrivesWith="the transaction forms templates" />;
}
