import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../runtime/config.ts';

// One embedded Redis per DATA_DIR: the running `npm start` holds a lock file naming its pid and
// Redis port. A lock whose pid is gone (a supervisor killed with SIGKILL) is taken over.

interface Holder {
  pid: number;
  redisPort: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch {
    return undefined; // gone, or cut short by a crash while written: stale either way
  }
}

/** Takes the lock, or throws a ConfigError naming the `npm start` holding it. Returns the release. */
export function takeLock(file: string, redisPort: number): () => void {
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, redisPort } satisfies Holder));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const holder = readHolder(file);
    if (holder && alive(holder.pid)) {
      throw new ConfigError(
        `another npm start is running on this DATA_DIR (pid ${holder.pid}, embedded Redis on port ${holder.redisPort}): ` +
          'stop it first, or set REDIS_URL to run on a Redis of your own',
      );
    }
    rmSync(file, { force: true });
  }
}
