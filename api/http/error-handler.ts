import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isRedisRefusal, isStoreFailure } from '../../store/index.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Metrics } from '../metrics.ts';
import { HttpError, RETRY_DB_SECONDS, RETRY_SOON_SECONDS } from './http-error.ts';
import { sendJson } from './json-answer.ts';

export const notFound: RequestHandler = (_req, _res, next) => next(new HttpError(404, 'not found'));

// body-parser marks its own failures with a `type`; each becomes a clear client error.
const BODY_ERRORS: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'invalid request'],
  'entity.too.large': [413, 'request body too large (at most 16 KiB)'],
  'entity.verify.failed': [400, 'invalid request'],
  'request.aborted': [400, 'invalid request'],
  'request.size.invalid': [400, 'invalid request'],
  'charset.unsupported': [415, 'unsupported charset (send UTF-8 JSON)'],
  'encoding.unsupported': [415, 'unsupported content encoding'],
  'stream.encoding.set': [500, 'internal error'],
};

const bodyError = (err: unknown) => {
  const type = (err as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? BODY_ERRORS[type] : undefined;
};

/**
 * A malformed request that a library marked as the client's fault (an http-errors 4xx it means to
 * expose) without a `type` of its own: e.g. body-parser's 400 for a body whose Content-Encoding
 * (gzip, deflate, br) does not decode. Without this it would fall through to 500.
 */
function isClientHttpError(err: unknown): boolean {
  const e = err as { expose?: unknown; status?: unknown } | null;
  return e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}

/**
 * Turns every failure into the spec's error body; Redis trouble (down, refusing, or a command
 * that failed) is 503 `db unavailable`. Every 503 says when to retry (`Retry-After`). `path`
 * (the request's, as it arrived) is logged with a failure that is our fault.
 */
export function errorAnswer(logger: Logger, metrics: Pick<Metrics, 'countError'>) {
  return (err: unknown, res: ServerResponse, path: string): void => {
    metrics.countError(err);
    let status = 500;
    let body: Record<string, unknown> = { error: 'internal error' };
    let headers: OutgoingHttpHeaders = {};
    const bodyFailure = bodyError(err);
    if (err instanceof HttpError) {
      status = err.status;
      body = err.body;
      headers = { ...err.headers };
    } else if (isStoreFailure(err)) {
      status = 503;
      body = { error: 'db unavailable' };
      headers = { 'Retry-After': RETRY_DB_SECONDS };
      // A refusal (at maxmemory, a replica, a failed script) needs the operator; an outage is
      // already counted and logged by its connection.
      if (isRedisRefusal(err)) logger.error({ err, path }, 'redis refused a command');
    } else if (bodyFailure) {
      [status, body] = [bodyFailure[0], { error: bodyFailure[1] }];
    } else if (err instanceof URIError || isClientHttpError(err)) {
      status = 400;
      body = { error: 'invalid request' };
    }
    if (status >= 500 && status !== 503) logger.error({ err, path }, 'request failed');
    if (status === 503) headers['Retry-After'] ??= RETRY_SOON_SECONDS;
    if (res.headersSent) return;
    sendJson(res, status, body, headers);
  };
}

/** The express end of the same: every route's failure is answered by errorAnswer. */
export function errorHandler(logger: Logger, metrics: Pick<Metrics, 'countError'>): ErrorRequestHandler {
  const answer = errorAnswer(logger, metrics);
  return (err, req, res, _next) => answer(err, res, req.path);
}
