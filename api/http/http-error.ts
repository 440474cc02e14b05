/** An answer of the spec's error shape: `{error}` plus the fields the spec names. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
  }

  get body(): Record<string, unknown> {
    return { error: this.error, ...this.extra };
  }
}

export const invalidRequest = () => new HttpError(400, 'invalid request');
export const invalidCredential = () => new HttpError(401, 'invalid credential');

/**
 * The `Retry-After` of every 503 (seconds): each says "retry shortly" (Redis heals, a probe slot
 * frees, the generation queue drains), so clients back off from here rather than hammer.
 */
export const RETRY_SOON_SECONDS = 5;
