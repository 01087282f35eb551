import { PagePlaceholder } from '../components/PagePlaceholder';

/** Profile settings (spec section 2, /settings). */
export function Settings() {
  return <PagePlaceholder title="Update Profile" arrivesWith="profile settings" />;
}
