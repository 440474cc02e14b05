import { ReplyError } from 'ioredis';

/** Redis could not be reached or answered that it cannot serve now; the API says 503. */
export class DbUnavailableError extends Error {
  override name = 'DbUnavailableError';
  constructor(cause?: unknown) {
    super('db unavailable', { cause });
  }
}

// Server replies that mean "not now" rather than "your command is wrong".
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|MISCONF)\b/;

/**
 * True for every failure that means the store is unreachable or not serving: connection errors,
 * command timeouts, a closed offline queue, and transient server replies. A plain ReplyError
 * (a bug in a script or a command) is not one: that must surface as a real error.
 */
export function isDbUnavailable(err: unknown): boolean {
  if (err instanceof DbUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  if (err instanceof ReplyError) return TRANSIENT_REPLY.test(err.message);
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|enableOfflineQueue|Command timed out|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Stream isn't writeable|connect ETIMEDOUT/.test(
      err.message,
    )
  );
}
