// What the docs name exists, and what exists is documented: the configuration table against the
// config schema, the operator CLI commands against its --help, npm scripts against package.json.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../runtime/config.ts';
import { docFiles, readDoc } from '../support/markdown.ts';
import { REPO_ROOT } from '../support/repo.ts';

const readme = readDoc('README.md');
const docs = docFiles();

/** Rows of every table whose header's first cell is `name`, as arrays of cells. */
function tableRows(text: string, name: string): string[][] {
  const header = new RegExp(`^\\|\\s*${name}\\s*\\|`);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (header.test(line)) inTable = true;
    else if (!line.startsWith('|')) inTable = false;
    else if (inTable && !/^\|[\s|:-]+\|$/.test(line)) rows.push(line.split(/(?<!\\)\|/).slice(1, -1));
  }
  return rows;
}

describe("the README's configuration table", () => {
  const documented = new Set(
    tableRows(readme.text, 'Variable').flatMap((cells) =>
      [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
    ),
  );
  const schema = new Set(Object.keys(ConfigSchema.shape));

  it('lists every variable of the config schema', () => {
    expect(schema.size).toBeGreaterThan(10);
    expect([...schema].filter((v) => !documented.has(v))).toEqual([]);
  });

  it('lists no variable the schema does not read', () => {
    expect([...documented].filter((v) => !schema.has(v))).toEqual([]);
  });
});

/** The literal words of a command (`review approve <id>: what it does` → `review approve`). */
const commandWords = (usage: string) =>
  usage
    .split(':')[0]!
    .trim()
    .split(/\s+/)
    .filter((w, i, all) => all.slice(0, i + 1).every((x) => /^[a-z][a-z-]*$/.test(x)))
    .join(' ');

/** The commands --help lists: its JSON's `commands` (the CLI prints one JSON object), else its lines. */
function helpEntries(stdout: string): string[] {
  try {
    const commands = (JSON.parse(stdout) as { commands?: unknown }).commands;
    if (Array.isArray(commands)) return commands.map(String);
  } catch {
    // not JSON: a plain listing
  }
  return stdout.split('\n');
}

describe('operator CLI commands in the docs', () => {
  it('are each listed by `npm run --silent admin -- --help`', async () => {
    const help = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'admin', '--', '--help'],
        { cwd: REPO_ROOT, timeout: 60_000, env: { ...process.env, LOG_LEVEL: 'silent' } },
        (err, stdout, stderr) =>
          resolve({
            code: err ? (typeof err.code === 'number' ? err.code : -1) : 0,
            out: stdout,
            err: stderr,
          }),
      );
    });
    expect(help.code, `${help.out}${help.err}`).toBe(0);
    const listed = new Set(
      helpEntries(help.out)
        .map(commandWords)
        .filter((w) => w !== ''),
    );

    // The README's command tables (the bot's `/commands` and `npm` lines have no CLI words), and
    // every `admin -- <command>` anywhere in the docs.
    const named = new Set(
      tableRows(readme.text, 'Command')
        .filter((cells) => !cells[0]!.trim().startsWith('`/'))
        .flatMap((cells) => [...cells[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
        .filter((cmd) => !cmd.startsWith('npm '))
        .map(commandWords),
    );
    for (const doc of docs) {
      for (const m of doc.text.matchAll(/admin -- ([a-z][a-z -]*)/g)) named.add(commandWords(m[1]!));
    }
    named.delete('');
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((cmd) => !listed.has(cmd))).toEqual([]);
  }, 90_000);
});

describe('npm scripts the docs name', () => {
  it('exist in package.json', () => {
    const scripts = Object.keys(
      (
        JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts,
    );
    const named = new Set<string>();
    for (const doc of docs) {
      for (const m of doc.text.matchAll(/\bnpm (?:run(?: --silent)? ([\w:-]+)|(start|test)\b)/g))
        named.add(m[1] ?? m[2]!);
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !scripts.includes(name))).toEqual([]);
  });
});
