import { PagePlaceholder } from '../components/PagePlaceholder';

/** User administration for admins (spec section 2, /users). */
export function Users() {
  return <PagePlaceholder title="Users" arrivesWith="user administration" />;
}
