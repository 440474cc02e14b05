import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDeps } from '../deps.ts';
import { mapCoding, type MapCoding } from '../http/content-coding.ts';
import { assertVisible, mapLookup, type FoundMap } from '../maps/map-lookup.ts';
import type { MapBytes } from '../maps/memory-cache.ts';
import { ID_SLOT } from '../http/request-id-header.ts';
import { sendJson } from '../http/json-answer.ts';
import { matchesEtag } from '../http/if-none-match.ts';
import type { Handler } from './route.ts';

/** The headers every answer of a map's bytes in one coding carries (ETag included). */
function mapHeaders(bytes: MapBytes, coding: MapCoding): string[] {
  // A strong ETag names these exact bytes: each content coding gets its own (RFC 9110 8.8.3.3),
  // so a cache holding the gzip bytes never has them confirmed by a revalidation of the br ones.
  const etag = coding ? `${bytes.etag.slice(0, -1)}-${coding}"` : bytes.etag;
  return [
    'Cache-Control',
    'public, no-cache',
    'ETag',
    etag,
    'Vary',
    'Accept-Encoding',
    'Content-Type',
    'application/json; charset=utf-8',
  ];
}

// A 200's whole header array per body (a body is one map in one coding), made on its first read,
// with the request id's slot last: a held map's read builds no header object or ETag string.
const answers = new WeakMap<Buffer, string[]>();

function answerHeaders(bytes: MapBytes, body: Buffer, coding: MapCoding): string[] {
  let headers = answers.get(body);
  if (headers === undefined) {
    const encoding = coding ? ['Content-Encoding', coding] : [];
    headers = [...mapHeaders(bytes, coding), ...encoding, 'Content-Length', String(body.length), ID_SLOT, ''];
    answers.set(body, headers);
  }
  return headers;
}

function sendMap(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: MapBytes,
  body: Buffer,
  coding: MapCoding,
) {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const headers = mapHeaders(bytes, coding);
    if (matchesEtag(ifNoneMatch, headers[3]!)) {
      res.writeHead(304, headers).end();
      return;
    }
  }
  res.writeHead(200, answerHeaders(bytes, body, coding)).end(req.method === 'HEAD' ? undefined : body);
}

/**
 * GET /maps/{seed} (4.7). A map this process holds in memory needs one small Redis round trip, an
 * HEXISTS of the hidden seeds (the full block check, which also counts a refused view, only for a
 * seed it names). Otherwise one round trip finds it (maps/map-lookup.ts, which also counts the
 * route's step limit, seeds not generated yet, in the same script); a rebuilt map is checked once
 * more against a window that may have opened meanwhile. Bytes go out as stored (br or gzip by
 * Accept-Encoding, or the JSON) with a strong ETag; `no-cache` makes every shared cache
 * revalidate here, so none serves a seed after its window opens. Written on node's response alone.
 */
export function readMap(deps: ApiDeps): Handler<{ params: { seed: number } }> {
  const { store, mapMemory, hiddenSeeds, metrics } = deps;
  const maps = mapLookup(deps);
  const visible = (seed: number) => assertVisible(store, seed, true);

  return async ({ req, res, params: { seed } }) => {
    const coding = mapCoding(req);
    const held = mapMemory.get(seed);
    if (held && (await hiddenSeeds.mayBeHidden(seed))) await visible(seed);
    const found: FoundMap = held ? [held, 'memory'] : await maps.find(seed, req);
    // A window may have opened while the map was rebuilt.
    if (found?.[1] === 'rebuilt') await visible(seed);
    if (!found) {
      sendJson(res, 202, { status: 'pending', job: 'queued' }, { 'Cache-Control': 'no-store' });
      return;
    }
    const [bytes, source] = found;
    metrics.countMapRead(source);
    const body = coding === 'br' ? bytes.br : coding === 'gzip' ? bytes.gz : mapMemory.json(seed, bytes);
    sendMap(req, res, bytes, body, coding);
  };
}
