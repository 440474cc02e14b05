import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/redis-server.ts';
import { testPrefix } from '../support/api.ts';
import { REPO_ROOT } from '../support/repo.ts';
import { ensureViewerBuilt } from '../support/e2e-stack.ts';
import { assembleImageFiles } from '../support/image-files.ts';
import { spawnLogged, type LoggedProcess } from '../support/logged-process.ts';
import { STRIPS_TYPES } from '../support/node-args.ts';
import { get } from '../support/http.ts';
import { pollUntil } from '../support/clock.ts';
import { type JobBody } from '../support/read-api.ts';

// Issue 35.1, what ships starts: the files the Dockerfile's runtime stage copies, assembled as it
// copies them (support/image-files.ts), start every process the image runs, each with the command
// compose.yaml gives it and the environment the image and compose set (Redis: the test's
// redis-server; loopback only). The image's Node 24 strips the types itself (`node api/main.ts`,
// no tsx: it has none); where the runtime running the suite does too, the processes start just
// so, else (Node 20) through tsx.

const loader = STRIPS_TYPES ? 'node alone, as the image' : 'node with tsx (this Node strips no types)';

interface Service {
  command: string[];
  environment?: Record<string, string>;
}
const compose = load(readFileSync(join(REPO_ROOT, 'compose.yaml'), 'utf8')) as {
  services: Record<'api' | 'generator' | 'bot', Service>;
};
/** The Dockerfile's ENV (NODE_ENV, PORT), which compose's settings then override. */
const imageEnv = Object.fromEntries(
  [...readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8').matchAll(/^ENV\s+((?:.*\\\n)*.*)$/gm)]
    .flatMap((m) => m[1]!.replace(/\\\n/g, ' ').trim().split(/\s+/))
    .map((kv) => kv.split('=') as [string, string]),
);

let dir: string;
let files: string[];
const prefix = testPrefix();
const running: LoggedProcess[] = [];

/**
 * A service of compose.yaml started from the assembled files, with its command and settings (or
 * `command` in its container, as `compose exec` runs one).
 */
function start(
  name: keyof typeof compose.services,
  env: Record<string, string> = {},
  command = compose.services[name].command,
): LoggedProcess {
  const [node, ...argv] = command;
  expect(node, `${name}'s command runs node`).toBe('node');
  const child = spawnLogged(
    argv,
    {
      ...imageEnv,
      ...compose.services[name].environment,
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: prefix,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    { root: dir },
  );
  running.push(child);
  return child;
}

/** What a process said, for a failure message. */
const said = (p: LoggedProcess) =>
  `\nstdout: ${p.stdout().slice(-2_000)}\nstderr: ${p.stderr().slice(-2_000)}`;

beforeAll(async () => {
  await ensureViewerBuilt();
  dir = mkdtempSync(join(tmpdir(), 'image-files-'));
  files = assembleImageFiles(REPO_ROOT, dir);
});
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe(`the image's files start every process (${loader})`, () => {
  let api: { process: LoggedProcess; base: string } | undefined;

  it('hold what runs and none of the sources that do not', () => {
    expect(files).toEqual(
      expect.arrayContaining(['api/main.ts', 'renderer/render-map.ts', 'viewer/dist/index.html']),
    );
    expect(files.filter((f) => /^(test|bench|docs|viewer\/src)\/|\.md$|(^|\/)\.env/.test(f))).toEqual([]);
  });

  it('the API answers /readyz 200 against Redis', async () => {
    const port = await freePort();
    const child = start('api', { PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    api = { process: child, base: `${url}/api` };
    await pollUntil(
      async () => {
        if (!child.alive()) throw new Error(`the API exited at start${said(child)}`);
        return get(`${url}/readyz`).catch((err: Error) => ({ status: 0, text: err.message }));
      },
      (r) => r.status === 200,
      { timeoutMs: 60_000, everyMs: 100, what: '/readyz 200' },
    );
  });

  it('the generator takes a job the API queued and generates it', async () => {
    expect(api, 'the API runs').toBeDefined();
    const worker = start('generator');
    const seed = 1_000 + Math.floor(Math.random() * 1_000_000);
    const queued = await get<JobBody>(`${api!.base}/jobs/${seed}`);
    expect(queued.status, queued.text).toBe(200);
    await pollUntil(
      async () => {
        if (!worker.alive()) throw new Error(`the generator exited${said(worker)}`);
        return get<JobBody>(`${api!.base}/jobs/${seed}`);
      },
      (r) => r.status === 200 && r.body.status === 'ready',
      { timeoutMs: 60_000, everyMs: 100, what: `job ${seed} ready` },
    );
    const map = await get<{ seed: number; rooms: unknown[] }>(`${api!.base}/maps/${seed}`);
    expect(map.status).toBe(200);
    expect(map.body.seed).toBe(seed);
    expect(map.body.rooms.length).toBeGreaterThan(50);
  });

  it('the bot with --if-configured and no Discord settings says what is missing and exits 0', async () => {
    const bot = start('bot');
    expect(await bot.exited, said(bot)).toEqual({ code: 0, signal: null });
    expect(bot.stderr()).toMatch(/^DISCORD_TOKEN is not set/);
  });

  it('the operator CLI answers in the API container (README: compose exec api node scripts/admin.ts)', async () => {
    const cli = start('api', {}, ['node', 'scripts/admin.ts', 'servers', 'list']);
    expect(await cli.exited, said(cli)).toEqual({ code: 0, signal: null });
    expect(JSON.parse(cli.stdout())).toBeTypeOf('object');
  });
});
