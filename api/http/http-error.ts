/** An answer of the spec's error shape: `{error}` plus the fields the spec names. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly error: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(error);
    this.status = status;
    this.error = error;
    this.extra = extra;
    this.headers = headers;
  }

  get body(): Record<string, unknown> {
    return { error: this.error, ...this.extra };
  }
}

/**
 * 400 `invalid request`; `field` names the body field or query parameter that failed, when one did
 * (a name from the route's declaration, never a value the client sent).
 */
export const invalidRequest = (field?: string) =>
  new HttpError(400, 'invalid request', field === undefined ? {} : { field });
export const invalidCredential = () => new HttpError(401, 'invalid credential');

/**
 * The `Retry-After` of a 503 (seconds): each says "retry shortly" (a probe slot frees, the
 * generation queue drains), so clients back off from here rather than hammer.
 */
export const RETRY_SOON_SECONDS = 5;
/**
 * ...except `db unavailable`: an outage, a failover or replicas slow to confirm a write heal in
 * about a second, and a report waiting on it should have its window acknowledged soon.
 */
export const RETRY_DB_SECONDS = 1;
