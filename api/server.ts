import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../runtime/config.ts';
import { redisReady, type Store } from '../store/index.ts';
import { listen, localAddress } from '../runtime/listen.ts';
import { logRedisOutages } from '../runtime/redis-outages.ts';
import { DRAIN_MS, isStopping, storeFromConfig } from '../runtime/process.ts';
import type { ApiDeps } from './deps.ts';
import { frontDoor } from './front-door.ts';
import { IdentifiedResponse } from './http/request-id-header.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { drain } from './http/draining.ts';
import { capIdleConnections } from './http/idle-connections.ts';
import { boundSlowClients, limitBodies, TIMEOUT_CHECK_MS } from './http/slow-clients.ts';
import { compileTrustProxy } from './http/trust-proxy.ts';
import { startClockSkewWatch } from './jobs/clock-skew.ts';
import { startGeneratorWatch } from './jobs/generator-watch.ts';
import { startMapUpkeep } from './jobs/map-upkeep.ts';
import { startReleasePoller } from './jobs/release-poller.ts';
import { startReplicationWatch } from './jobs/replication-watch.ts';
import { startRequestCounter } from './jobs/request-counter.ts';
import { startWindowSweeper } from './jobs/window-sweeper.ts';
import { createLogger, type Logger } from '../runtime/logger.ts';
import { HiddenSeeds } from './maps/hidden-seeds.ts';
import { mapRebuilds } from './maps/rebuilds.ts';
import { MapMemoryCache } from './maps/memory-cache.ts';
import { createMetrics } from './metrics.ts';
import { createProbe, type Probe } from './probe/index.ts';
import { viewerBuilt, viewerDistDir } from './viewer-files.ts';

export interface RunningApi {
  readonly url: string;
  readonly port: number;
  readonly store: Store;
  readonly ready: Promise<void>;
  /**
   * Stops accepting, lets in-flight requests finish (cut off after `graceMs`, DRAIN_MS by default:
   * a slow upload or a keep-alive client holds no stop up), stops the jobs, closes Redis.
   */
  close(graceMs?: number): Promise<void>;
}

/** Parts a test may stand in for: the probe, for client addresses no test may send a packet to. */
export interface ApiSeams {
  probe?: Probe;
}

/**
 * The HTTP server of one API process: the front door behind the body limits and the idle
 * connection cap, with the slow-client bounds and answers to malformed requests.
 */
function httpServer(deps: ApiDeps) {
  const { config } = deps;
  const server = createServer({
    ServerResponse: IdentifiedResponse,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
  });
  const watchIdle = capIdleConnections(server, {
    max: config.MAX_CONNECTIONS,
    perPeer: config.MAX_IDLE_CONNECTIONS_PER_PEER,
    trust: deps.trustProxy,
  });
  server.on(
    'request',
    watchIdle(
      limitBodies(frontDoor(deps), {
        perIp: config.MAX_CONNECTIONS_PER_IP,
        inFlight: config.MAX_BODIES_IN_FLIGHT,
        trust: deps.trustProxy,
      }),
    ),
  );
  boundSlowClients(server, config);
  answerClientErrors(server);
  return server;
}

/** Starts one API process: the HTTP server, the window sweeper and the release poller. */
export async function startApiServer(
  config: Config,
  logger: Logger = createLogger(config.LOG_LEVEL, 'api'),
  seams: ApiSeams = {},
) {
  const store = storeFromConfig(config, 'seedblock-api');
  logRedisOutages(store.ctx.redis, logger, config.REDIS_URL!, isStopping);
  const distDir = viewerDistDir(config.VIEWER_DIST_DIR);
  if (!viewerBuilt(distDir)) {
    logger.warn(
      { distDir },
      'the map viewer is not built: its pages answer 503 and /readyz fails; run npm run build:viewer',
    );
  }
  // Serve even when Redis is not up yet: calls answer 503 until it is, then recover by themselves.
  await redisReady(store.ctx.redis, 5_000).catch(() =>
    logger.warn({ redis: 'not ready' }, 'starting without Redis; calls answer 503 until it is reachable'),
  );
  const probe =
    seams.probe ??
    createProbe(config.PROBE_KIND, {
      allowPrivate: config.PROBE_ALLOW_PRIVATE,
      timeoutMs: config.PROBE_TIMEOUT_MS,
    });
  const requests = startRequestCounter(store, logger);
  const startedAt = await store.ctx.clock.now().catch(() => Date.now());
  const deps = {
    config,
    store,
    logger,
    probe,
    requests,
    startedAt,
    metrics: createMetrics(store),
    trustProxy: compileTrustProxy(config.TRUST_PROXY),
    mapMemory: new MapMemoryCache(config.MAP_MEMORY_CACHE_BYTES),
    hiddenSeeds: new HiddenSeeds(store),
    rebuilds: mapRebuilds(),
  };
  const server = httpServer(deps);
  try {
    await listen(server, config.PORT, config.HOST, (reason) =>
      logger.warn({ reason }, 'IPv6 is not available here: listening on IPv4 only (0.0.0.0)'),
    );
  } catch (err) {
    await requests.stop();
    await store.close();
    throw err;
  }
  const sweeper = startWindowSweeper(deps);
  const releases = startReleasePoller(deps);
  const mapCache = startMapUpkeep(deps);
  const generatorWatch = startGeneratorWatch(deps);
  const clockSkewWatch = startClockSkewWatch(deps);
  const replicationWatch = startReplicationWatch(deps);
  const { port } = server.address() as AddressInfo;
  logger.info({ port, prefix: config.API_PREFIX, clock: config.SEEDBLOCK_CLOCK }, 'api listening');
  return {
    url: `http://${localAddress(config.HOST)}:${port}`,
    port,
    store,
    ready: releases.firstPoll,
    async close(graceMs = DRAIN_MS) {
      drain(server);
      sweeper.stop();
      releases.stop();
      generatorWatch.stop();
      clockSkewWatch.stop();
      replicationWatch.stop();
      await new Promise<void>((resolve) => {
        // A request still running after the grace period is cut off, so shutdown always ends.
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(deadline);
          resolve();
        });
        server.closeIdleConnections();
      });
      await Promise.all([requests.stop(), mapCache.stop()]);
      await store.close();
    },
  } satisfies RunningApi;
}
