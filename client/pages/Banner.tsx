import { PagePlaceholder } from '../components/PagePlaceholder';

/** The banner editor (spec section 2, /banner). */
export function Banner() {
  return <PagePlaceholder title="Banner" arrivesWith="the banner editor" />;
}
