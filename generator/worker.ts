import { randomUUID } from 'node:crypto';
import cron from 'node-cron';
import { isDbUnavailable, WORKER_BEAT_MS, type Store, type StoreRedis } from '../store/index.ts';
import type { Logger } from '../runtime/logger.ts';
import { buildMapJson, compressMap } from './map-bytes.ts';

export interface WorkerOptions {
  store: Store;
  /** A connection of its own: BLMOVE blocks it while waiting. */
  blocking: StoreRedis;
  logger: Logger;
  /** MAP_CACHE_MAX_BYTES: the map cache's cap; with 0 maps are not even compressed here. */
  cacheMaxBytes: number;
  /** How long one wait for a job lasts before checking for shutdown. */
  waitSeconds?: number;
}

/**
 * A generator worker: takes seeds from the queue (BLMOVE into the processing list), leases,
 * generates, indexes (and offers the map cache its bytes), acknowledges. A job of a worker that died goes back to the queue when its
 * lease runs out; every worker runs that reaper, so any survivor picks the job up.
 */
export function startWorker({ store, blocking, logger, cacheMaxBytes, waitSeconds = 2 }: WorkerOptions) {
  const workerId = randomUUID();
  let running = true;
  let current: number | null = null;

  // Readiness counts the workers that beat lately (store/workers.ts); Redis away, a beat is lost.
  const beat = () => store.beatWorker(workerId).catch(() => {});
  void beat();
  const heartbeat = setInterval(beat, WORKER_BEAT_MS);
  heartbeat.unref();

  const reaper = cron.schedule('*/5 * * * * *', async () => {
    try {
      const requeued = await store.requeueStaleJobs();
      if (requeued > 0) logger.warn({ requeued }, 'jobs of stopped workers sent back to the queue');
    } catch (err) {
      if (!isDbUnavailable(err)) logger.error({ err }, 'requeue of stale jobs failed');
    }
  });

  async function work(seed: number): Promise<void> {
    current = seed;
    try {
      const attempt = await store.startJob(seed, workerId);
      if (attempt === 0) return;
      const started = performance.now();
      let built;
      try {
        built = buildMapJson(seed);
      } catch (err) {
        const outcome = await store.failJob(seed, err instanceof Error ? err.message : String(err));
        logger.error({ err, seed, attempt, outcome }, 'generation failed');
        return;
      }
      // The list entry is what is kept; the bodies only when the map cache may hold them.
      const bodies = cacheMaxBytes > 0 ? await compressMap(built.json) : undefined;
      await store.finishJob({ seed, ...built.summary, bodies }, cacheMaxBytes);
      const ms = performance.now() - started;
      await store.recordGenerationTime(ms);
      logger.info({ seed, ms: Math.round(ms * 100) / 100 }, 'map generated');
    } finally {
      current = null;
    }
  }

  const loop = (async () => {
    while (running) {
      try {
        const seed = await store.takeJob(blocking, waitSeconds);
        if (seed !== null) await work(seed);
      } catch (err) {
        // Redis away: the job (if any) stays in the processing list and its lease brings it back.
        if (!isDbUnavailable(err)) logger.error({ err }, 'worker step failed');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  return {
    workerId,
    get current() {
      return current;
    },
    /** Stops taking jobs, finishes the one in hand, stops the reaper and the heartbeat. */
    async stop() {
      running = false;
      clearInterval(heartbeat);
      await reaper.stop();
      await loop;
      await store.forgetWorker(workerId).catch(() => {});
    },
  };
}
