import { ReplyError } from 'ioredis';

/** Redis could not be reached or answered that it cannot serve now; the API says 503. */
export class DbUnavailableError extends Error {
  override name = 'DbUnavailableError';
  constructor(cause?: unknown) {
    super('db unavailable', { cause });
  }
}

// Server replies that mean "not now" rather than "your command is wrong".
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|MISCONF|OOM|NOREPLICAS)\b/;

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

/**
 * Every failure of the store as a client sees it: 503 `db unavailable`, never 500. That is what
 * isDbUnavailable covers, and also any other error Redis replied with (a script or command
 * error): a bug of ours, logged as one, but the store refusing is still no 500 for the client.
 */
export function isStoreFailure(err: unknown): boolean {
  return isDbUnavailable(err) || isRedisRefusal(err);
}

/** Redis answered a command with an error (OOM, READONLY, a failed script), as opposed to no answer. */
export function isRedisRefusal(err: unknown): boolean {
  return err instanceof ReplyError;
}

/**
 * An error as log fields: for Redis being away (an expected state, whose outage the connection
 * logs once) its message alone, no stack of ioredis internals; anything else in full.
 */
export function failureFields(err: unknown): { reason: string } | { err: unknown } {
  return isDbUnavailable(err) ? { reason: (err as Error).message } : { err };
}
