import { PagePlaceholder } from '../components/PagePlaceholder';

/** The forms library (spec section 2, /forms). */
export function Forms() {
  return <PagePlaceholder title="Forms" arrivesWith="the forms library" />;
}
