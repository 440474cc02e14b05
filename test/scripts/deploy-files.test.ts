import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../../runtime/config.ts';
import { REPO_ROOT } from '../support/repo.ts';

// README "Deploying": Dockerfile, compose.yaml and deploy/systemd/. No Docker engine runs and no
// base image can be pulled here, so this checks what can be: every file, npm script, command and
// variable they name exists and is accepted by the config schema, the image holds only what runs
// and runs it with Node alone, compose passes every setting and hardens every service, the health
// check file works, and the units pass `systemd-analyze verify`.

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const UNITS = ['api', 'generator', 'bot'].map((p) => `deploy/systemd/seedblock-${p}.service`);

/**
 * `node <file>` (the image: Node 24 strips the types itself) or `node --import tsx <file>` (systemd:
 * any supported Node) names a file of the checkout; `npm run <x>` a script of package.json.
 */
function expectRunnable(argv: string[], loader: 'node' | 'tsx'): string {
  if (argv[0] === 'npm') {
    expect(Object.keys(scripts)).toContain(argv[argv[1] === 'run' ? 2 : 1]);
    return argv.join(' ');
  }
  expect(argv[0]).toMatch(/(^|\/)node$/);
  const file = loader === 'tsx' ? argv[3]! : argv[1]!;
  if (loader === 'tsx') expect(argv.slice(1, 3)).toEqual(['--import', 'tsx']);
  else expect(argv).not.toContain('tsx');
  expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
  return file;
}

/** The environment a file sets, as the processes get it: known variables, accepted by the schema. */
function expectAcceptedEnv(env: Record<string, string>, where: string): void {
  for (const name of Object.keys(env))
    expect(Object.keys(ConfigSchema.shape), `${where}: ${name}`).toContain(name);
  expect(() => loadConfig(env), where).not.toThrow();
}

const HEALTHCHECK_FILE = 'scripts/healthcheck.mjs';

describe('Dockerfile', () => {
  const stages = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split(/\n(?=FROM )/)
    .map((stage) => stage.split('\n').filter((l) => l.trim() && !l.startsWith('#')));
  const lines = stages.flat();
  const instructions = (name: string, of = lines) =>
    of.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1));
  const runtime = stages.at(-1)!;

  it('is multi-stage, builds the viewer at image build, and runs as a non-root user', () => {
    expect(instructions('FROM').length).toBeGreaterThanOrEqual(2);
    expect(instructions('COPY').some((c) => c.startsWith('--from=build '))).toBe(true);
    const runs = instructions('RUN').join(' && ');
    for (const match of runs.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(scripts)).toContain(match[1]);
    expect(runs).toContain('npm run build:viewer');
    const user = instructions('USER').at(-1);
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    // Every file it copies in before the rest exists.
    for (const copy of instructions('COPY').filter((c) => !c.startsWith('--from'))) {
      for (const path of copy.split(/\s+/).slice(0, -1)) {
        if (path !== '.') expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
      }
    }
  });

  it('checks /healthz with the health check file, and its command runs a file of the checkout with Node alone', () => {
    const check = instructions('HEALTHCHECK').join(' ');
    const argv = JSON.parse(check.slice(check.indexOf('CMD ') + 4)) as string[];
    expect(expectRunnable(argv, 'node')).toBe(HEALTHCHECK_FILE);
    expect(argv.at(-1)).toBe('/healthz');
    expectRunnable(JSON.parse(instructions('CMD').at(-1)!) as string[], 'node');
    expectAcceptedEnv(
      Object.fromEntries(
        instructions('ENV').flatMap((e) => e.split(/\s+/).map((kv) => kv.split('=') as [string, string])),
      ),
      'Dockerfile ENV',
    );
  });

  it('the runtime stage holds runtime dependencies without tsx, and copies only what runs', () => {
    const deps = stages.find((stage) => instructions('RUN', stage).some((r) => r.includes('--omit=dev')));
    expect(deps, 'a stage installs the runtime dependencies only').toBeDefined();
    expect(instructions('RUN', deps).join(' ')).toMatch(/npm uninstall [^&]*\btsx\b/);
    expect(instructions('RUN', runtime)).toEqual([]);
    const copied = instructions('COPY', runtime).flatMap((c) => {
      const words = c.split(/\s+/);
      return words.slice(words[0]!.startsWith('--from') ? 1 : 0, -1);
    });
    expect(copied).toContain('/app/node_modules');
    expect(copied).toContain('/app/viewer/dist');
    for (const path of copied) {
      expect(path, 'no whole folder of the build').not.toMatch(/^(\.|\/app\/?)$/);
      expect(path).not.toMatch(/^(test|bench|docs|deploy|viewer\/src)(\/|$)|\.md$|^\.|\.env/);
    }
  });

  it('.dockerignore is an allowlist of what the image builds from, and keeps secrets out of it', () => {
    const rules = read('.dockerignore')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    expect(rules[0]).toBe('*');
    const allowed = rules.filter((r) => r.startsWith('!')).map((r) => r.slice(1));
    for (const path of allowed) expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    for (const secret of ['.env', '.data', 'backup-appendonlydir', '.npmrc', 'test', 'bench', 'docs', '.git'])
      expect(allowed).not.toContain(secret);
    // What the allowed folders may hold but the image must not: excluded again after them.
    const last = rules.findLastIndex((r) => r.startsWith('!'));
    expect(rules.slice(last + 1)).toEqual(
      expect.arrayContaining(['**/node_modules', 'viewer/dist', '**/.env*', '**/.npmrc', '**/*.pem']),
    );
    // Every file the Dockerfile copies from the context is allowed.
    for (const copy of instructions('COPY').filter((c) => !c.startsWith('--from'))) {
      for (const path of copy.split(/\s+/).slice(0, -1)) {
        if (path !== '.') expect(allowed, path).toContain(path.split('/')[0]);
      }
    }
  });
});

describe('scripts/healthcheck.mjs', () => {
  const check = async (status: number | null, path: string) => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === path ? status! : 404).end('{"status":"answer"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    if (status === null) await new Promise((resolve) => server.close(resolve));
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [HEALTHCHECK_FILE, path],
        { cwd: REPO_ROOT, env: { PATH: process.env.PATH, PORT: String(port), HOST: '::' }, timeout: 30_000 },
        (err, _stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
      ),
    );
    server.close();
    return result;
  };

  it('exits 0 when the API answers the path with 2xx, else 1 with one line saying why', async () => {
    const [ready, notReady, down] = await Promise.all([
      check(200, '/readyz'),
      check(503, '/readyz'),
      check(null, '/healthz'),
    ]);
    expect(ready).toEqual({ code: 0, stderr: '' });
    expect(notReady.code).toBe(1);
    expect(notReady.stderr).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/readyz answered 503: \{"status":"answer"\}\n$/,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/healthz: .*ECONNREFUSED.*\n$/);
  });
});

// That the files the image copies start every process it runs: image-files.test.ts.

describe('compose.yaml', () => {
  interface Service {
    image?: string;
    build?: string;
    command?: string[];
    environment?: Record<string, string>;
    env_file?: string | string[];
    restart?: string;
    profiles?: string[];
    volumes?: string[];
    ports?: string[];
    read_only?: boolean;
    tmpfs?: string[];
    cap_drop?: string[];
    security_opt?: string[];
    stop_grace_period?: string;
    healthcheck?: { test?: string[]; disable?: boolean };
  }
  const text = read('compose.yaml');
  const compose = load(text) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { redis, api, generator, bot } = compose.services;
  const seedblock = { api, generator, bot };

  it('runs Redis with AOF on a volume, the API, the generator, and the bot in an optional profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'bot', 'generator', 'redis']);
    expect(redis!.command?.join(' ')).toMatch(/--appendonly yes/);
    const [volume, mount] = (redis!.volumes?.[0] ?? '').split(':');
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect(redis!.command?.join(' ')).toContain(`--dir ${mount}`);
    expect(bot!.profiles).toEqual(['bot']);
    expect(api!.profiles).toBeUndefined();
    expect(generator!.profiles).toBeUndefined();
    for (const service of [redis, api, generator]) expect(service!.restart).toBe('unless-stopped');
  });

  it('checks readiness of the API on /readyz with the health check file; every command and variable exists', () => {
    expect(api!.healthcheck?.test).toEqual(['CMD', 'node', HEALTHCHECK_FILE, '/readyz']);
    // The image's /healthz check would fail on processes that answer no HTTP: off, in a form
    // podman-compose 1.0.3 understands too (it ignores `disable`).
    expect(generator!.healthcheck?.test).toEqual(['NONE']);
    expect(bot!.healthcheck?.test).toEqual(['NONE']);
    for (const [name, service] of Object.entries(seedblock)) {
      expect(service!.build).toBe('.');
      expectRunnable(service!.command!, 'node');
      const env = service!.environment ?? {};
      expect(env.REDIS_URL).toMatch(/^redis:\/\/redis:/);
      expectAcceptedEnv(env, `compose ${name}`);
    }
  });

  it('passes every setting of .env to every seedblock service, with no interpolation', () => {
    // env_file passes the whole file (the README's table); short syntax, which podman-compose
    // 1.0.3 reads (it fails on the long one). `${VAR:-}` reached containers literally there.
    for (const service of Object.values(seedblock)) {
      expect([service!.env_file].flat()).toEqual(['.env']);
      // Only what the containers decide themselves overrides .env (README "Containers").
      for (const name of Object.keys(service!.environment ?? {}))
        expect(['NODE_ENV', 'REDIS_URL', 'PORT']).toContain(name);
    }
    expect(text).not.toContain('$');
  });

  it('hardens every service and binds the API to loopback', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service, name).toMatchObject({
        read_only: true,
        tmpfs: ['/tmp'],
        cap_drop: ['ALL'],
        security_opt: [expect.stringMatching(/^no-new-privileges(:true)?$/)],
      });
    }
    expect(api!.ports).toEqual([expect.stringMatching(/^127\.0\.0\.1:/)]);
  });

  it("stops within the engines' 10 s, and the bot without its token stays down", () => {
    for (const service of Object.values(compose.services)) expect(service.stop_grace_period).toBe('10s');
    // bot/main.ts --if-configured exits 0 on a missing setting (test/bot/main.test.ts), which
    // on-failure does not restart; a crash exits non-zero and is restarted.
    expect(bot!.restart).toBe('on-failure');
    expect(bot!.command).toContain('--if-configured');
  });
});

describe('deploy/systemd', () => {
  const unit = (path: string) =>
    Object.fromEntries(
      read(path)
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );

  it.each(UNITS)('%s restarts always, is sandboxed, and runs a file of the checkout', (path) => {
    const u = unit(path);
    expect(u).toMatchObject({
      Restart: 'always',
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      PrivateTmp: 'yes',
      ProtectHome: 'yes',
    });
    expect(u.User).not.toBe('root');
    expect(u.EnvironmentFile).toBe('/etc/seedblock/seedblock.env');
    expectRunnable(u.ExecStart!.split(/\s+/), 'tsx');
    // As long as the engines' grace (compose's stop_grace_period): the processes end within 8 s.
    expect(u.TimeoutStopSec).toBe('10');
  });

  it('the example environment file names only known variables, and they are accepted', () => {
    const env = Object.fromEntries(
      read('deploy/systemd/seedblock.env.example')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(env.REDIS_URL).toBeDefined();
    expectAcceptedEnv({ ...env, NODE_ENV: 'production' }, 'seedblock.env.example');
  });

  // Debian's `systemd` package brings systemd-analyze; without it there is nothing to run.
  const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
  it.skipIf(!analyze)(
    analyze
      ? 'the units pass systemd-analyze verify'
      : 'the units pass systemd-analyze verify: skipped, systemd-analyze is not installed (Debian package systemd)',
    async () => {
      const { stdout, stderr } = await promisify(execFile)(analyze!, ['verify', ...UNITS], {
        cwd: REPO_ROOT,
      });
      // Unknown keys and bad values are only warnings (exit 0): none may be printed.
      expect(stdout + stderr).toBe('');
    },
  );
});
