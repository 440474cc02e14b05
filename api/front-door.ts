import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import type { ManualClock } from '../store/index.ts';
import { createApp } from './app.ts';
import type { ApiDeps } from './deps.ts';
import { healthProbes } from './health.ts';
import { clockDate } from './http/clock-date.ts';
import { edge } from './http/edge.ts';
import { errorAnswer } from './http/error-handler.ts';
import { mapReads, mapRoutePath, plainMapRead } from './routes/maps.ts';
import { plainReport, reportAnswers, type ReportRoute } from './routes/report.ts';

// What makes parseurl hand a target to url.parse (which may rewrite the path) instead of cutting it.
const UNPLAIN = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path of a request as it arrived. An origin-form target (`/path?query`, nearly every request)
 * is cut at its `?`, as parseurl would, without the URL object it builds (one allocation fewer on
 * every map read); any other form goes through parseurl, as express does.
 */
function requestPath(req: IncomingMessage): string {
  const url = req.url!;
  if (url.charCodeAt(0) !== 0x2f || UNPLAIN.test(url)) return parseUrl(req)?.pathname ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Where every request starts, on node's request: the health probes, then the edge (request id,
 * log line and metrics, https redirect, API request count), then the manual clock's `Date` header in test mode, then
 * either a map read or a report in its plain form, answered right here, or the express app for
 * the rest.
 *
 * Map reads are most of the traffic and reports what server owners depend on; neither answer needs
 * anything from express, whose routing costs about 40 µs of CPU per request, as much as the rest of
 * a cached map read (bench sections 1 and 2).
 */
export function frontDoor(deps: ApiDeps): RequestListener {
  const readMap = mapReads(deps);
  const answerReport = reportAnswers(deps);
  const app = createApp(deps, readMap, answerReport);
  const passEdge = edge(deps);
  const answerProbe = healthProbes(deps);
  const prefix = deps.config.API_PREFIX;
  const mapSeed = plainMapRead(prefix);
  const mapRoute = mapRoutePath(prefix);
  const reportRoute = plainReport(prefix);
  const answerError = errorAnswer(deps.logger, deps.metrics);
  const clock = deps.store.ctx.clock;
  const stampDate = clock.kind === 'manual' ? clockDate(clock as ManualClock) : null;

  const dispatch = (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    seed: string | null,
    report: ReportRoute | null,
  ) => {
    if (seed === null && report === null) return app(req, res);
    const answered = seed !== null ? readMap(req, res, seed) : answerReport(req, res, report!);
    answered.catch((err: unknown) => answerError(err, res, path));
  };
  return (req, res) => {
    const path = requestPath(req);
    const seed = mapSeed(req, path);
    const report = seed === null ? reportRoute(req, path) : null;
    // Health probes before the edge: never logged, counted or redirected (health.ts).
    if (seed === null && report === null && answerProbe(req, res, path)) return;
    const route = seed !== null ? mapRoute : report !== null ? `${prefix}${report}` : undefined;
    if (passEdge(req, res, path, route)) return;
    if (stampDate) void stampDate(res).then(() => dispatch(req, res, path, seed, report));
    else dispatch(req, res, path, seed, report);
  };
}
