// Every example in docs/api.md runs, in order, against a real API process on the test Redis, and
// answers what the page shows. The page's `sh` blocks are read line by line:
// - `npm run --silent admin -- …` runs the operator CLI on the same Redis;
// - `NAME=…` sets a variable from the JSON the CLI command before it printed (FIELD_OF says which
//   field), as a reader copies it;
// - `curl … # → NNN` runs with localhost:8080 rewritten to the test API and must answer NNN; a
//   `# {…}` line right after it shows the body, and every field written out in full there
//   ("key":"text", number, true, false or null, not `…`) must be in the answer;
// - any other line that is not a comment fails the test, so the page only shows what runs.
// `ADMIN_TOKEN` is the service's own setting: the test gives the API and the shell the same one.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startApiProcess, type ApiProcess } from '../../support/api-process.ts';
import { readDoc } from '../../support/markdown.ts';
import { REPO_ROOT } from '../../support/repo.ts';

/** The CLI output field each variable of the page takes. */
const FIELD_OF: Record<string, string> = { KEY: 'credential', CODE: 'code' };
const SERVICE = 'localhost:8080';
const ADMIN_TOKEN = 'docs-examples-admin-token';

const page = readDoc('docs/api.md');
const lines = page.blocks
  .filter((b) => b.lang === 'sh')
  .flatMap((b) => b.body.split('\n').map((text, i) => ({ text, line: b.line + i })));

/** Lines joined where they end in a backslash. */
function commands(): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let pending: { text: string; line: number } | null = null;
  for (const l of lines) {
    const text: string = pending ? `${pending.text} ${l.text.trim()}` : l.text;
    const line: number = pending?.line ?? l.line;
    if (text.endsWith('\\')) pending = { text: text.slice(0, -1).trimEnd(), line };
    else {
      out.push({ text, line });
      pending = null;
    }
  }
  return out;
}

function sh(command: string, env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd: REPO_ROOT, env, timeout: 60_000 }, (err, stdout) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout }),
    );
  });
}

/** Fields written out in full in a `# {…}` line. */
function shownFields(comment: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const m of comment.matchAll(/"(\w+)":("[^"…]*"|-?\d+|true|false|null)(?=[,}])/g))
    fields[m[1]!] = JSON.parse(m[2]!);
  return fields;
}

let api: ApiProcess;
beforeAll(async () => {
  // Probes stay on public addresses, as in production: self-claim from here is `private address`.
  api = await startApiProcess({ PROBE_ALLOW_PRIVATE: '0', ADMIN_TOKEN });
});
afterAll(async () => {
  await api?.stop();
});

describe('docs/api.md examples', () => {
  it('each runs against a test service and answers the status and fields it shows', async () => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: api.prefix,
      SEEDBLOCK_CLOCK: 'manual',
      LOG_LEVEL: 'silent',
      ADMIN_TOKEN,
    };
    const all = commands();
    let cliOutput: Record<string, unknown> | null = null;
    let curls = 0;
    for (const [i, { text, line }] of all.entries()) {
      const where = `docs/api.md:${line}`;
      const command = text.trim();
      if (command === '' || command.startsWith('#')) continue;
      if (command.startsWith('npm run --silent admin -- ')) {
        const res = await sh(command, env);
        expect(res.code, `${where} ${command}: ${res.stdout}`).toBe(0);
        cliOutput = JSON.parse(res.stdout) as Record<string, unknown>;
        continue;
      }
      const assignment = /^([A-Z_]+)=/.exec(command);
      if (assignment) {
        const field = FIELD_OF[assignment[1]!];
        expect(field, `${where}: a variable the test does not know`).toBeDefined();
        expect(cliOutput?.[field!], `${where}: ${field} of the CLI command before`).toEqual(
          expect.any(String),
        );
        env[assignment[1]!] = cliOutput![field!] as string;
        continue;
      }
      const curl = /^(curl .*?)\s+# → (\d{3})\b/.exec(command);
      expect(curl, `${where}: neither a curl with "# → status", a CLI command nor a variable`).not.toBeNull();
      expect(curl![1], `${where}: examples call ${SERVICE}`).toContain(SERVICE);
      expect(curl![1], `${where}: one curl, no pipes`).not.toMatch(/[|;&]\s/);
      const run = `${curl![1]!.replaceAll(SERVICE, `127.0.0.1:${api.port}`)} -w '\\n%{http_code}'`;
      const res = await sh(run, env);
      expect(res.code, `${where}: curl exit`).toBe(0);
      const status = res.stdout.slice(res.stdout.lastIndexOf('\n') + 1);
      const body = res.stdout.slice(0, res.stdout.lastIndexOf('\n'));
      expect(status, `${where} ${curl![1]}\n${body}`).toBe(curl![2]);
      const next = all[i + 1]?.text.trim() ?? '';
      if (next.startsWith('# {')) {
        expect(JSON.parse(body), `${where}: the body shown below it`).toMatchObject(shownFields(next));
      }
      curls += 1;
    }
    // The page documents every endpoint with an example; a parser that found none proves nothing.
    expect(curls).toBeGreaterThanOrEqual(20);
  }, 180_000);
});
