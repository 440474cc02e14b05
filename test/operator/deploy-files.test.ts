import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, loadConfig } from '../../runtime/config.ts';
import { REPO_ROOT } from '../support/child.ts';

// README "Deploying": Dockerfile, compose.yaml and deploy/systemd/. No Docker engine runs and no
// base image can be pulled here, so this checks what can be: every file, npm script, command and
// variable they name exists and is accepted by the config schema, and the units pass
// `systemd-analyze verify`.

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const UNITS = ['api', 'generator', 'bot'].map((p) => `deploy/systemd/seedblock-${p}.service`);

/** `node --import tsx <file>` names a file of the checkout; `npm run <x>` a script of package.json. */
function expectRunnable(argv: string[]): void {
  if (argv[0] === 'npm') {
    expect(Object.keys(scripts)).toContain(argv[argv[1] === 'run' ? 2 : 1]);
    return;
  }
  expect(argv.slice(0, 3)).toEqual([expect.stringMatching(/(^|\/)node$/), '--import', 'tsx']);
  expect(existsSync(join(REPO_ROOT, argv[3]!)), argv[3]).toBe(true);
}

/** The environment a file sets, as the processes get it: known variables, accepted by the schema. */
function expectAcceptedEnv(env: Record<string, string>, where: string): void {
  for (const name of Object.keys(env))
    expect(Object.keys(ConfigSchema.shape), `${where}: ${name}`).toContain(name);
  expect(() => loadConfig(env), where).not.toThrow();
}

/** Compose's `${VAR:-default}` as it reads with VAR unset. */
const unsetDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

describe('Dockerfile', () => {
  const lines = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  const instructions = (name: string) =>
    lines.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1));

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

  it('checks /healthz, and its command runs a file of the checkout', () => {
    expect(instructions('HEALTHCHECK').join(' ')).toContain('/healthz');
    expectRunnable(JSON.parse(instructions('CMD').at(-1)!) as string[]);
    expectAcceptedEnv(
      Object.fromEntries(
        instructions('ENV').flatMap((e) => e.split(/\s+/).map((kv) => kv.split('=') as [string, string])),
      ),
      'Dockerfile ENV',
    );
  });

  it('.dockerignore keeps out dependencies and data, and nothing the image runs or builds from', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.data', '.git', 'viewer/dist']));
    for (const needed of [
      'api',
      'store',
      'generator',
      'bot',
      'scripts',
      'viewer',
      'package.json',
      'package-lock.json',
    ]) {
      expect(ignored).not.toContain(needed);
    }
  });
});

describe('compose.yaml', () => {
  interface Service {
    image?: string;
    build?: string;
    command?: string[];
    environment?: Record<string, string>;
    restart?: string;
    profiles?: string[];
    volumes?: string[];
    healthcheck?: { test?: string[]; disable?: boolean };
  }
  const compose = load(read('compose.yaml')) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { redis, api, generator, bot } = compose.services;

  it('runs Redis with AOF on a volume, the API, the generator, and the bot in an optional profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'bot', 'generator', 'redis']);
    expect(redis!.command?.join(' ')).toMatch(/--appendonly yes/);
    const [volume, mount] = (redis!.volumes?.[0] ?? '').split(':');
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect(redis!.command?.join(' ')).toContain(`--dir ${mount}`);
    expect(bot!.profiles).toEqual(['bot']);
    expect(api!.profiles).toBeUndefined();
    expect(generator!.profiles).toBeUndefined();
    for (const service of Object.values(compose.services)) expect(service.restart).toBe('unless-stopped');
  });

  it('checks readiness of the API on /readyz; every command and variable exists', () => {
    expect(api!.healthcheck?.test?.join(' ')).toContain('/readyz');
    for (const [name, service] of Object.entries({ api, generator, bot })) {
      expect(service!.build).toBe('.');
      expectRunnable(service!.command!);
      const env = Object.fromEntries(
        Object.entries(service!.environment ?? {}).map(([k, v]) => [k, unsetDefaults(String(v))]),
      );
      expect(env.REDIS_URL).toMatch(/^redis:\/\/redis:/);
      expectAcceptedEnv(env, `compose ${name}`);
    }
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
    expectRunnable(u.ExecStart!.split(/\s+/));
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
