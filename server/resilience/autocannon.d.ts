/**
 * The part of autocannon 9's programmatic API the load run uses (the package ships no types and
 * @types/autocannon is not a dependency). Shapes follow lib/run.js and lib/aggregateResult.js.
 */
declare module 'autocannon' {
  type Headers = Record<string, string>;

  export type RequestParams = {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path?: string;
    headers?: Headers;
    body?: string | Buffer;
  };

  export type RequestContext = Record<string, unknown>;

  export type Request = RequestParams & {
    /** Called before every request with a context of its own (reset before each request when
     * there is a single request in the list); the returned request is sent. */
    setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | undefined;
    onResponse?: (status: number, body: string, context: RequestContext, headers: Headers) => void;
  };

  export type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  };

  export type Options = {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds without an answer before a request counts as a timeout. */
    timeout?: number;
    requests?: Request[];
  };

  export type Result = {
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  function autocannon(options: Options): PromiseLike<Result>;
  export default autocannon;
}
