import { PagePlaceholder } from '../components/PagePlaceholder';

/** The notifications panel (spec section 2, /notifications). */
export function Notifications() {
  return <PagePlaceholder title="Notifications" arrivesWith="notifications" />;
}
