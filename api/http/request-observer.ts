import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../store/logger.ts';
import type { Metrics } from '../metrics.ts';
import { acceptedRequestId, redactPath } from './secret-shapes.ts';

/** Log only one in `every` successful answers (200, 304) of `route`; every other answer is logged. */
export interface LogSample {
  route: string;
  every: number;
}

/**
 * The operator's view of a request: a request id (answered as `X-Request-Id`), then one structured
 * log line and the request metrics from one `finish` listener. Only the method, path, status and
 * timing are logged: never headers or bodies, so no credential or claim code reaches a log.
 * Successful map reads, most of the traffic, may be sampled (`sample`): their line says
 * `sampled: N` (one of N), while metrics still count each one.
 */
export function requestObserver(logger: Logger, metrics: Pick<Metrics, 'recordRequest'>, sample: LogSample) {
  let skipped = 0;
  const logged = (route: string | undefined, status: number): boolean => {
    if (route !== sample.route || (status !== 200 && status !== 304) || sample.every === 1) return true;
    if (++skipped < sample.every) return false;
    skipped = 0;
    return true;
  };
  /**
   * `path` is the request's path as it arrived, with the API prefix; `route` the pattern that
   * serves it when the front door already knows it (else the metrics ask express).
   */
  return (req: IncomingMessage, res: ServerResponse, path: string, route?: string): void => {
    const given = req.headers['x-request-id'];
    const id = (given !== undefined && acceptedRequestId(given)) || randomUUID();
    req.id = id;
    const started = performance.now();
    // `on`, not `once`: finish fires once, and once's wrapper would be one more allocation.
    res.on('finish', () => {
      const ms = performance.now() - started;
      const status = res.statusCode;
      metrics.recordRequest(req, status, ms / 1000, route);
      if (!logged(route, status)) return;
      // A key or claim code a client put in the path stays out of the log.
      const line = {
        reqId: id,
        method: req.method,
        path: redactPath(path),
        status,
        ms: Math.round(ms * 100) / 100,
      };
      const fields = route === sample.route && sample.every > 1 ? { ...line, sampled: sample.every } : line;
      // A 503 (Redis away, busy) is the operator's business: warn, as every other 5xx.
      if (status >= 500) logger.warn(fields, 'request');
      else logger.info(fields, 'request');
    });
  };
}
