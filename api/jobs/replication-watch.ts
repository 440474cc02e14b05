import { connectRedis, type LeaseChange, type ReplicaState, type StoreRedis } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

/** With no acknowledged write this long, the replicas are asked on the probe connection. */
const PROBE_MS = 1_000;

/**
 * Says what a client of this process cannot see for itself, one line per change of state:
 * - at warn when the replicas stop confirming acknowledged writes in time (every report that
 *   would open a window answers 503 meanwhile), at info when they confirm again; when no write
 *   asked in the last second, a write of the probe's own on a connection of its own asks them;
 * - at warn when this process's Redis is no longer confirmed as the current master (map, job and
 *   seed-list reads answer 503), at info when it is again, and when the Sentinels name another
 *   master and the connection moves there.
 * It also starts the lease at once, so the first read need not wait for it.
 */
export function startReplicationWatch({
  store,
  config,
  logger,
}: Pick<ApiDeps, 'store' | 'config' | 'logger'>): {
  stop(): void;
} {
  const { replication, master, replicaAcks } = store.ctx;
  master.start();

  const offReplicas = replication.onChange(({ ackable, confirmed, required }: ReplicaState) => {
    const fields = { replicasConfirmed: confirmed, replicasAck: required, timeoutMs: replicaAcks.timeoutMs };
    if (ackable) logger.info(fields, 'replicas confirm writes again');
    else {
      logger.warn(
        fields,
        'replicas do not confirm writes in time: reports that would open a window, and other acknowledged writes, answer 503 until they do',
      );
    }
  });
  const offLease = master.onChange((change: LeaseChange) => {
    if (change.kind === 'confirmed') logger.info('Redis confirmed as the current master again');
    else if (change.kind === 'moved') {
      logger.warn({ from: change.from, to: change.to }, 'the Sentinels name another master: moving there');
    } else {
      logger.warn(
        { reason: change.reason },
        'Redis not confirmed as the current master: map, job and seed-list reads answer 503 until it is',
      );
    }
  });

  let probe: StoreRedis | null = null;
  const timer = setInterval(() => {
    if (!replication.waits || performance.now() - replication.lastOutcomeAt < PROBE_MS) return;
    probe ??= connectRedis({
      url: config.REDIS_URL!,
      name: 'seedblock-api-probe',
      waitMs: replicaAcks.timeoutMs,
    });
    // Redis away: its outage is logged by the main connection.
    replication.probe(probe).catch(() => {});
  }, PROBE_MS);
  timer.unref();

  return {
    stop() {
      clearInterval(timer);
      offReplicas();
      offLease();
      probe?.disconnect();
    },
  };
}
