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
 * either a map read in its plain form, answered right here, or the express app for the rest.
 *
 * Map reads are most of the traffic and their answer needs nothing from express, whose routing
 * costs about 40 µs of CPU per request, as much as the rest of a cached map read (bench section 1).
 */
export function frontDoor(deps: ApiDeps): RequestListener {
  const readMap = mapReads(deps);
  const app = createApp(deps, readMap);
  const passEdge = edge(deps);
  const answerProbe = healthProbes(deps);
  const mapSeed = plainMapRead(deps.config.API_PREFIX);
  const mapRoute = mapRoutePath(deps.config.API_PREFIX);
  const answerError = errorAnswer(deps.logger, deps.metrics);
  const clock = deps.store.ctx.clock;
  const stampDate = clock.kind === 'manual' ? clockDate(clock as ManualClock) : null;

  const dispatch = (req: IncomingMessage, res: ServerResponse, path: string, seed: string | null) => {
    if (seed === null) app(req, res);
    else readMap(req, res, seed).catch((err: unknown) => answerError(err, res, path));
  };
  return (req, res) => {
    const path = requestPath(req);
    const seed = mapSeed(req, path);
    // Health probes before the edge: never logged, counted or redirected (health.ts).
    if (seed === null && answerProbe(req, res, path)) return;
    if (passEdge(req, res, path, seed === null ? undefined : mapRoute)) return;
    if (stampDate) void stampDate(res).then(() => dispatch(req, res, path, seed));
    else dispatch(req, res, path, seed);
  };
}
