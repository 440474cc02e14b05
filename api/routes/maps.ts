import type { IncomingMessage, ServerResponse } from 'node:http';
import { GENERATOR_VERSION } from '../../generator/version.ts';
import { failureFields, RATE_LIMITS } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { mapCoding, type MapCoding } from '../http/content-coding.ts';
import type { MapBytes, MapSource } from '../maps/memory-cache.ts';
import { mapRebuilds, RebuildsBusyError } from '../maps/rebuilds.ts';
import { ID_SLOT } from '../http/request-id-header.ts';
import { sendJson } from '../http/json-answer.ts';
import { byIp, rateLimited } from '../http/rate-limit.ts';
import { blockedError, mapUnavailable, parseSeedParam } from '../http/read-answers.ts';

/** If-None-Match (RFC 9110 13.1.2): a list of entity tags, compared weakly, or `*`. */
function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

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
 * GET /maps/{seed} (4.7), given the seed as the path spells it. A map this process holds in memory
 * needs one small Redis round trip, an HEXISTS of the hidden seeds (the full block check, which also
 * counts a refused view, only for a seed it names). Otherwise one round trip does the block
 * check, the seed index, the map cache, the job and the uncached-seed limit; a dumped seed in no
 * cache is rebuilt from the seed (a map is a pure function of it: same bytes, same ETag), checked
 * once more against a window that may have opened meanwhile, and kept. Bytes go out as stored (br
 * or gzip by Accept-Encoding, or the JSON) with a strong ETag; `no-cache` makes every shared cache
 * revalidate here, so none serves a seed after its window opens. Written on node's response
 * alone, so the front door can answer with it before express.
 */
export function mapReads({ store, config, trustProxy, mapMemory, hiddenSeeds, metrics, logger }: ApiDeps) {
  const uncachedLimit = RATE_LIMITS.uncachedMapsPerIp.limit * config.RATE_LIMIT_MULTIPLIER;
  const clientKey = byIp(trustProxy);
  const rebuild = mapRebuilds();

  /** Throws the refusal unless the seed may be shown now (a refused view is counted). */
  async function visible(seed: number): Promise<void> {
    const block = await store.checkSeedBlock(seed, { countView: true });
    if (block.kind === 'window') throw blockedError({ kind: 'blocked', until: block.until });
    if (block.kind === 'permanent') throw blockedError(block);
  }

  /** The bytes of a dumped seed the index found in no cache, once they are safe to send. */
  async function rebuilt(seed: number): Promise<MapBytes> {
    const bytes = await rebuild(seed).catch((err: unknown) => {
      throw err instanceof RebuildsBusyError ? mapUnavailable() : err;
    });
    // Keeping it (and the seed's index entry as this generator makes it) is a favour to the next
    // read: a Redis that refuses (at maxmemory, say) loses this read nothing.
    await store
      .cacheMap(seed, bytes, config.MAP_CACHE_MAX_BYTES, bytes.summary)
      .catch((err: unknown) =>
        logger.warn({ ...failureFields(err), seed }, 'rebuilt map not kept in the map cache'),
      );
    // A window may have opened while the map was rebuilt.
    await visible(seed);
    return mapMemory.keep(seed, bytes);
  }

  /**
   * The bytes of a seed this process does not hold, and where they came from; null while it is
   * being generated.
   */
  async function find(seed: number, req: IncomingMessage): Promise<[MapBytes, MapSource] | null> {
    const read = await store.readMap({
      seed,
      clientKey: clientKey(req),
      queueMax: config.QUEUE_MAX,
      uncachedLimit,
      generatorVersion: GENERATOR_VERSION,
    });
    switch (read.kind) {
      case 'cached':
        return [mapMemory.keep(seed, read.bodies), 'cache'];
      case 'rebuild':
        return [await rebuilt(seed), 'rebuilt'];
      case 'pending':
        return null;
      case 'limited':
        throw await rateLimited(store, read.resetAt);
      case 'blocked':
      case 'permanent':
        throw blockedError(read);
      case 'full':
      case 'error':
        throw mapUnavailable();
    }
  }

  return async (req: IncomingMessage, res: ServerResponse, seedParam: string): Promise<void> => {
    const seed = parseSeedParam(seedParam);
    const coding = mapCoding(req);
    const held = mapMemory.get(seed);
    if (held && (await hiddenSeeds.mayBeHidden(seed))) await visible(seed);
    const found: [MapBytes, MapSource] | null = held ? [held, 'memory'] : await find(seed, req);
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
export type MapReads = ReturnType<typeof mapReads>;
