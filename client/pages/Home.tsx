import { PagePlaceholder } from '../components/PagePlaceholder';

/** The user's transactions list (spec section 2, /home), built by a later issue. */
export function Home() {
  return <PagePlaceholder title="Transactions" arrivesWith="the transactions list" />;
}
