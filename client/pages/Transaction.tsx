import { PagePlaceholder } from '../components/PagePlaceholder';

/** A user's transaction detail (spec section 2, /home/transactions/:id). */
export function Transaction() {
  return <PagePlaceholder title="Transaction" arrivesWith="the transaction detail" />;
}
