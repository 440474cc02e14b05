import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../runtime/logger.ts';
import type { Metrics } from '../metrics.ts';
import { acceptedRequestId, redactPath } from './secret-shapes.ts';

/**
 * A route the request observer knows by the time it answers: its metrics label, and the log
 * sampling it asks for (route.ts `logSample`): only one in `logEvery` of its successful answers
 * (200, 304) is logged; every other answer is. `skipped` counts those left out since the last.
 */
export interface ObservedRoute {
  readonly label: string;
  readonly logEvery: number;
  skipped: number;
}

/**
 * Request ids this process makes: a random UUID once, its last 12 hex digits then counted up, so
 * each id is still UUID-shaped and unique, without a random draw per request.
 */
function requestIds(): () => string {
  const head = randomUUID().slice(0, 24);
  let n = Number.parseInt(randomUUID().slice(24, 35), 16);
  return () => head + (n++ % 0x1000000000000).toString(16).padStart(12, '0');
}

/**
 * The operator's view of a request: a request id (answered as `X-Request-Id`), then one structured
 * log line and the request metrics when the response finishes. Only the method, path, status and
 * timing are logged: never headers or bodies, so no credential or claim code reaches a log.
 * A route may sample its successful answers (map reads, most of the traffic): their line says
 * `sampled: N` (one of N), while metrics still count each one. One `finish` listener serves every
 * response (its state is on the response: fields of
 * IdentifiedResponse), so a request allocates no closure here.
 */
export function requestObserver(logger: Logger, metrics: Pick<Metrics, 'recordRequest'>) {
  const nextId = requestIds();
  const logged = (route: ObservedRoute | undefined, status: number): boolean => {
    if (route === undefined || route.logEvery === 1 || (status !== 200 && status !== 304)) return true;
    if (++route.skipped < route.logEvery) return false;
    route.skipped = 0;
    return true;
  };
  function finished(this: ServerResponse): void {
    const req = this.req;
    const ms = performance.now() - this.observedAt!;
    const status = this.statusCode;
    const route = this.observedRoute;
    metrics.recordRequest(req, status, ms / 1000, route?.label);
    if (!logged(route, status)) return;
    // A key or claim code a client put in the path stays out of the log.
    const line = {
      reqId: req.id,
      method: req.method,
      path: redactPath(this.observedPath!),
      status,
      ms: Math.round(ms * 100) / 100,
    };
    const fields = route !== undefined && route.logEvery > 1 ? { ...line, sampled: route.logEvery } : line;
    // A 503 (Redis away, busy) is the operator's business: warn, as every other 5xx.
    if (status >= 500) logger.warn(fields, 'request');
    else logger.info(fields, 'request');
  }
  /**
   * `path` is the request's path as it arrived, with the API prefix; `route` the table's route
   * that serves it when the front door already knows it (else express's registration sets it, or
   * the metrics ask express).
   */
  return (req: IncomingMessage, res: ServerResponse, path: string, route?: ObservedRoute): void => {
    const given = req.headers['x-request-id'];
    req.id = (given !== undefined && acceptedRequestId(given)) || nextId();
    res.observedPath = path;
    res.observedRoute = route;
    res.observedAt = performance.now();
    // `on`, not `once`: finish fires once, and once's wrapper would be one more allocation.
    res.on('finish', finished);
  };
}
