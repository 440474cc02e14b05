// Issue 28, item 3: the OpenAPI document as client authors' tools take it, with tools nobody here
// wrote, run offline under the loopback guard:
// - `@redocly/cli lint` with its recommended rules finds 0 errors. Its telemetry (on by default: a
//   DNS lookup and a request to Redocly, seen with strace) and its update notice are turned off
//   by OFFLINE; with them off, strace shows no socket but the tsx loader's own pipe;
// - openapi-typescript's output type-checks, with the named schemas a client writes against
//   (Map and its rooms, spawns, doors, teslas; Job; the seed list; both stats; version info).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../api/openapi.ts';
import { TS_NODE_ARGS } from '../../support/node-args.ts';

const REDOCLY = fileURLToPath(new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const OFFLINE = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
};

type Doc = ReturnType<typeof openApiDocument>;
let dir: string;
let docPath: string;
let doc: Doc;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seedblock-openapi-'));
  doc = openApiDocument('/api');
  docPath = join(dir, 'openapi.json');
  await writeFile(docPath, JSON.stringify(doc));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Under the loopback guard like every process a test starts.
    const child = spawn(process.execPath, [...TS_NODE_ARGS, ...args], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      env: { ...process.env, ...OFFLINE, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('@redocly/cli lint (recommended rules)', () => {
  it('finds no errors, offline', async () => {
    const lint = await run([REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', docPath]);
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 1)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(lint.code).toBe(0);
    expect(lint.stderr).not.toMatch(/loopback guard/);
  }, 120_000);
});

describe('openapi-typescript', () => {
  it('writes types that type-check, with named component schemas a client can use', async () => {
    const types = astToString(await openapiTS(JSON.parse(JSON.stringify(doc)) as never));
    const typesPath = join(dir, 'api-types.ts');
    await writeFile(typesPath, types);
    // A client's code against the named schemas: it compiles only if each has the fields used.
    const clientPath = join(dir, 'client.ts');
    await writeFile(
      clientPath,
      `import type { components, paths } from './api-types.ts';
type S = components['schemas'];
export const room = (r: S['Room']): [string, S['Zone'], number] => [r.name, r.zone, r.x];
export const rooms = (m: S['Map']) => m.rooms.map((r) => ({ name: r.name, zone: r.zone, x: r.x }));
export const things = (m: S['Map']): [S['Spawn'][], S['Door'][], S['Tesla'][]] => [m.spawns, m.doors, m.teslas];
export const job = (j: S['Job']): string => j.status;
export const seeds = (p: S['SeedList']): S['SeedListItem'][] => p.items;
export const stats = (o: S['OverviewStats'], p: S['ProtectionStats']) => o.seedsTracked + p.windows;
export const version = (v: S['VersionInfo']) => v.latest;
export type MapAnswer = paths['/maps/{seed}']['get']['responses'][200]['content']['application/json'];
export const seed = (m: MapAnswer): number => m.seed;
export type Limited = paths['/maps/{seed}']['get']['responses'][429]['headers']['Retry-After'];
export const wait = (seconds: Limited): number => seconds;
`,
    );
    const program = ts.createProgram([typesPath, clientPath], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 60_000);
});

describe('the document itself', () => {
  const operations = () =>
    Object.values(doc.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => key !== 'servers')
        .map(([, op]) => op as Record<string, unknown>),
    );

  it('names the schemas of the map, its parts, jobs, the seed list, both stats, version info and errors', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'Map',
      'Room',
      'Spawn',
      'Door',
      'Tesla',
      'Job',
      'SeedList',
      'SeedListItem',
      'OverviewStats',
      'ProtectionStats',
      'VersionInfo',
      'RateLimitedError',
      'DbUnavailableError',
      'BlockedError',
    ])
      expect(names).toContain(name);
  });

  it('gives every operation a unique operationId and a tag; public ones say security: []', () => {
    const ops = operations();
    const ids = ops.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ops.length);
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const op of ops) {
      expect(
        (op.tags as string[]).every((t) => tags.has(t)),
        String(op.operationId),
      ).toBe(true);
      expect(Array.isArray(op.security), String(op.operationId)).toBe(true);
    }
    expect(ops.filter((op) => (op.security as unknown[]).length === 0).length).toBeGreaterThan(5);
  });

  it('keeps success bodies open to new fields and requires an integer Retry-After on every 429', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"additionalProperties":false');
    for (const op of operations()) {
      const responses = op.responses as Record<
        string,
        { headers?: Record<string, { required?: boolean; schema: { type: string } }> }
      >;
      const limited = responses['429'];
      if (!limited) continue;
      expect(limited.headers?.['Retry-After'], String(op.operationId)).toMatchObject({
        required: true,
        schema: { type: 'integer' },
      });
    }
  });
});
