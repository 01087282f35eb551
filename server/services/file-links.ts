import type { ServiceContext } from './context';

/** Makes the signed link of a stored file for the answer being built. */
export type FileLinker = (key: string) => Promise<string>;

/**
 * Links as the caller needs them (ServiceContext.fileLinks): site-relative /files/ paths for the
 * portal's own pages, absolute APP_URL links for REST integrators. S3 presigned URLs are absolute
 * either way.
 */
export function fileLinker(ctx: ServiceContext): FileLinker {
  const sameOrigin = ctx.fileLinks === 'same-origin';
  return (key) => ctx.deps.storage.signedUrl(key, { sameOrigin });
}
