import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianPackage } from '../scripts/debian-package.ts';
import { ROOT, round } from './lib.ts';

// Every HTTP load of the bench comes from wrk (C, epoll), in a process of its own, so the bench
// measures the servers and not its own event loop. Beside req/s and latency it reads the CPU time
// each process spent (utime + stime from /proc/<pid>/stat) over the run: per request for the
// server and Redis, and wrk's own as a share of one core, which shows whether wrk was the limit.

const TICK_MS = 10; // USER_HZ is 100 on Linux: /proc's times are in hundredths of a second

/** utime + stime (fields 14, 15) and cutime + cstime (16, 17) of /proc/<pid>/stat, in ms. */
function cpuMs(stat: string): { own: number; children: number } {
  // Fields after the command name, which sits in parentheses and may hold spaces.
  const f = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { own: (f[11]! + f[12]!) * TICK_MS, children: (f[13]! + f[14]!) * TICK_MS };
}
const processCpuMs = (pid: number) => cpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')).own;

export interface WrkOptions {
  url: string;
  /** A script of bench/wrk/ and its arguments (after `--`). */
  script?: { name: string; args: string[] };
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** The server's pid, and Redis's, whose CPU time per request is reported. */
  serverPid: number;
  redisPid?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) of the server process per request, µs. */
  serverUsPerReq: number;
  redisUsPerReq?: number;
  /** wrk's CPU time over the run as a share of one core (its one thread): under 1, wrk had room. */
  wrkCore: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };
const latencyMs = (out: string, percent: number) => {
  const m = new RegExp(`^\\s+${percent}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(out);
  return m ? round(Number(m[1]) * UNIT_MS[m[2]!]!, 2) : NaN;
};
const count = (out: string, re: RegExp) => Number(re.exec(out)?.[1] ?? 0);

/**
 * One wrk run (one thread, `--latency`) against a server. wrk runs under `sh`, which reads its
 * own children's CPU time (cutime + cstime) once wrk has exited: wrk's CPU, to the end.
 */
export async function wrk(o: WrkOptions): Promise<LoadResult> {
  ensureDebianPackage('wrk', 'wrk');
  const args = ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(o.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (o.script) args.push('-s', join(ROOT, 'bench', 'wrk', `${o.script.name}.lua`));
  args.push(o.url);
  if (o.script) args.push('--', ...o.script.args);

  const before = { server: processCpuMs(o.serverPid), redis: o.redisPid ? processCpuMs(o.redisPid) : 0 };
  const child = spawn('sh', ['-c', 'wrk "$@"; s=$?; cat /proc/$$/stat; exit $s', 'sh', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`wrk failed (${code}):\n${out}`);
  const server = processCpuMs(o.serverPid) - before.server;
  const redis = o.redisPid ? processCpuMs(o.redisPid) - before.redis : 0;

  const requests = count(out, /^\s*(\d+) requests in/m);
  const wrkMs = cpuMs(out.trim().split('\n').at(-1)!).children;
  const perReq = (ms: number) => round((ms * 1000) / requests, 1);
  return {
    requests,
    rps: Math.round(count(out, /^Requests\/sec:\s+([\d.]+)/m)),
    p50Ms: latencyMs(out, 50),
    p99Ms: latencyMs(out, 99),
    non2xx: count(out, /Non-2xx or 3xx responses: (\d+)/),
    errors: [...out.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((a, m) => a + Number(m[1]), 0),
    serverUsPerReq: perReq(server),
    ...(o.redisPid ? { redisUsPerReq: perReq(redis) } : {}),
    wrkCore: round(wrkMs / (o.seconds * 1000), 2),
  };
}
