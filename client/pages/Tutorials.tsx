import { PagePlaceholder } from '../components/PagePlaceholder';

/** The tutorials library (spec section 2, /tutorials). */
export function Tutorials() {
  return <PagePlaceholder title="Tutorials" arrivesWith="the tutorials library" />;
}
