/**
 * The part of s3rver 3.7's API the tests use (the package ships no types). S3rver is a Koa
 * application: `middleware` is Koa's list, which server/test/s3-server.ts extends.
 */
declare module 's3rver' {
  export type S3rverContext = {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  };

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void> | void;

  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      resetOnClose?: boolean;
    });
    middleware: S3rverMiddleware[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
