import type { Logger } from '../../runtime/logger.ts';
import { startLocalRedis, type LocalRedis } from '../redis-server.ts';
import { RestartPolicy } from './restart-policy.ts';

// The Redis `npm start` runs when REDIS_URL is unset: durable (AOF, fsync always), 127.0.0.1
// only. If it dies it is started again at once on the same port and data; the API and the
// generator reconnect by themselves (answering 503 meanwhile). Dying in a crash loop stops the
// service.

export interface EmbeddedRedisEvents {
  started(pid: number): void;
  exited(pid: number): void;
  crashLoop(): void;
}

export class EmbeddedRedis {
  private redis: LocalRedis | undefined;
  private readonly policy = new RestartPolicy();
  private stopping = false;
  private readonly dir: string;
  readonly port: number;
  private readonly logger: Logger;
  private readonly events: EmbeddedRedisEvents;

  constructor(dir: string, port: number, logger: Logger, events: EmbeddedRedisEvents) {
    this.dir = dir;
    this.port = port;
    this.logger = logger;
    this.events = events;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const startedAt = performance.now();
    let spawnedPid: number | undefined;
    // Watched from its spawn on: a supervisor killed before the first PING answers leaves no orphan.
    const spawned = (pid: number) => {
      spawnedPid = pid;
      this.events.started(pid);
    };
    let redis: LocalRedis;
    try {
      redis = await startLocalRedis({ dir: this.dir, port: this.port, durable: true, spawned });
    } catch (err) {
      if (spawnedPid !== undefined) this.events.exited(spawnedPid);
      throw err;
    }
    const pid = redis.process.pid!;
    if (this.stopping) {
      // a restart that ended after the stop began
      await redis.stop();
      return this.events.exited(pid);
    }
    this.redis = redis;
    this.logger.info(
      { child: 'redis', childPid: pid, port: this.port },
      `embedded redis-server started (pid ${pid}) at ${this.url}, data in ${this.dir}`,
    );
    redis.process.once('exit', (code, signal) => {
      this.events.exited(pid);
      if (this.stopping) return;
      this.policy.exited(performance.now(), startedAt);
      const fields = {
        child: 'redis',
        port: this.port,
        exitCode: code,
        signal,
        restarts: this.policy.restarts,
      };
      if (this.policy.crashLoop()) {
        this.logger.error(fields, `embedded redis-server exited (${signal ?? code}): a crash loop`);
        this.events.crashLoop();
        return;
      }
      this.logger.error(
        fields,
        `embedded redis-server exited (${signal ?? code}); restarting it on port ${this.port} with the same data`,
      );
      void this.restart();
    });
  }

  private async restart(): Promise<void> {
    try {
      await this.start();
    } catch (err) {
      if (this.stopping) return;
      this.logger.error(
        { child: 'redis', err: (err as Error).message },
        'embedded redis-server did not start',
      );
      this.policy.exited(performance.now(), performance.now());
      if (this.policy.crashLoop()) this.events.crashLoop();
      else setTimeout(() => void this.restart(), 1_000);
    }
  }

  /**
   * From now on its exit is expected: no error line, no restart. Said as the stop begins, while
   * the children are still stopping, since a signal to the whole group reaches Redis at once.
   */
  expectStop(): void {
    this.stopping = true;
  }

  /**
   * SIGTERM (Redis writes its AOF and exits), SIGKILL after `killAfterMs` (AOF with fsync always:
   * nothing acknowledged is lost).
   */
  async stop(killAfterMs: number): Promise<void> {
    this.stopping = true;
    const redis = this.redis;
    if (!redis) return;
    const kill = setTimeout(() => redis.process.kill('SIGKILL'), killAfterMs);
    await redis.stop();
    clearTimeout(kill);
  }
}
