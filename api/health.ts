import type { IncomingMessage, ServerResponse } from 'node:http';
import { ensureScriptsLoaded, READY_PING_MS, type Store } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { RETRY_SOON_SECONDS } from './http/http-error.ts';
import { sendJson } from './http/json-answer.ts';
import { CLOCK_SKEW_WARN_MS, measureClockSkew } from './jobs/clock-skew.ts';
import {
  READY_CHECKS,
  type Generators,
  type ReadyCheck,
  type ReadyCheckName,
  type ReadyDetails,
} from './schemas.ts';
import { viewerBuilt, viewerDistDir } from './viewer-files.ts';

const LIVENESS_PATH = '/healthz';
const READINESS_PATH = '/readyz';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Rejects when `promise` has not settled within READY_PING_MS. */
function inTime<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_PING_MS} ms`)), READY_PING_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Workers seen lately and the queue depth, from Redis; `stalled`: jobs wait and no worker is there. */
export async function readGenerators(store: Store): Promise<Generators> {
  const [workers, { waiting, active }] = await Promise.all([store.countLiveWorkers(), store.queueDepth()]);
  return { workers, waiting, active, stalled: workers === 0 && waiting > 0 };
}

/**
 * `GET`/`HEAD` `/healthz` (liveness: 200 while the event loop answers) and `/readyz` (readiness:
 * Redis answers a PING within READY_PING_MS, the Lua scripts are loaded, the viewer is built;
 * else 503 naming each failed check). The front door asks first, outside API_PREFIX and before the
 * edge: probes are never logged, counted or rate-limited, and no https redirect meets a load
 * balancer's plain-http probe. Returns whether it answered the request.
 */
/** ioredis's error for a command sent on a socket that has closed. */
const NOT_WRITEABLE = /^Stream isn't writeable/;

export function healthProbes({ store, config }: Pick<ApiDeps, 'store' | 'config'>) {
  const distDir = viewerDistDir(config.VIEWER_DIST_DIR);

  const redis = store.ctx.redis;
  const reason = (err: unknown): string => {
    // Disconnected, ioredis says "Stream isn't writeable…": the connection's state says it plainly.
    // That error also comes while the state still reads `ready`: the socket closed, and ioredis
    // has not seen it yet.
    const message = err instanceof Error ? err.message : String(err);
    if (redis.status !== 'ready') return `no connection to Redis (${redis.status})`;
    if (NOT_WRITEABLE.test(message)) return 'no connection to Redis (closing)';
    return message;
  };
  const check = (work: Promise<unknown>): Promise<ReadyCheck> =>
    inTime(work).then(
      () => ({ ok: true }),
      (err: unknown) => ({ ok: false, error: reason(err) }),
    );

  /** Whether the lease holds, or its first confirmation since connecting comes in time. */
  const masterConfirmed = (): Promise<boolean> =>
    inTime(Promise.resolve().then(() => store.ctx.master.check())).then(
      () => true,
      () => false,
    );

  async function readiness() {
    const [redisCheck, scripts, generators, clockSkewMs, master] = await Promise.all([
      check(redis.ping()),
      check(ensureScriptsLoaded(redis)),
      inTime(readGenerators(store)).catch(() => null),
      inTime(measureClockSkew(redis)).catch(() => null),
      masterConfirmed(),
    ]);
    const { ackable, confirmed, required } = store.ctx.replication.state;
    const details: ReadyDetails = {
      replicasAck: required,
      replicasAckTimeoutMs: store.ctx.replicaAcks.timeoutMs,
      replicasAckable: ackable,
      replicasConfirmed: confirmed,
      masterConfirmed: master,
      clockSkewMs,
      clockSkewed: clockSkewMs !== null && Math.abs(clockSkewMs) > CLOCK_SKEW_WARN_MS,
    };
    const viewer: ReadyCheck = viewerBuilt(distDir)
      ? { ok: true }
      : { ok: false, error: `not built in ${distDir}: run npm run build:viewer` };
    const checks: Record<ReadyCheckName, ReadyCheck> = { redis: redisCheck, scripts, viewer };
    const failed = READY_CHECKS.filter((name) => !checks[name].ok);
    return failed.length === 0
      ? { status: 'ready' as const, checks, generators, details }
      : { status: 'unready' as const, error: 'not ready' as const, failed, checks, generators, details };
  }

  return (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    if (path !== LIVENESS_PATH && path !== READINESS_PATH) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === LIVENESS_PATH) {
      sendJson(res, 200, { status: 'ok' }, { ...NO_STORE });
      return true;
    }
    void readiness().then((body) =>
      body.status === 'ready'
        ? sendJson(res, 200, body, { ...NO_STORE })
        : sendJson(res, 503, body, { ...NO_STORE, 'Retry-After': RETRY_SOON_SECONDS }),
    );
    return true;
  };
}
