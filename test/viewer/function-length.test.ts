import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Issues 30.1 and 36.5: no function in viewer/src or the map renderer (renderer/) is longer than
// 100 lines, measured as the issues' check does it, with TypeScript's parser: every function
// declaration, expression, arrow, method, constructor and accessor, from its first line to its last.

const LIMIT = 100;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['viewer/src', 'renderer'].map((f) => join(ROOT, f));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

export interface FunctionLength {
  where: string;
  lines: number;
}

export function functionLengths(path: string, text = readFileSync(path, 'utf8')): FunctionLength[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name ? node.name.getText(file) : '(anonymous)';
      out.push({ where: `${relative(ROOT, path)}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('viewer functions', () => {
  it('the measure counts a function from its first line to its last', () => {
    const text = [
      'export function f() {',
      ...Array.from({ length: 160 }, () => '  g();'),
      '}',
      'const a = () => 1;',
    ];
    const [f, a] = functionLengths('x.ts', text.join('\n'));
    expect(f).toEqual({ where: expect.stringContaining(' f') as unknown, lines: 162 });
    expect(a?.lines).toBe(1);
  });

  it(`are at most ${LIMIT} lines long`, () => {
    const all = FOLDERS.flatMap(sources).flatMap((p) => functionLengths(p));
    expect(all.length).toBeGreaterThan(100);
    const longest = [...all].sort((a, b) => b.lines - a.lines).slice(0, 3);
    console.log(`longest viewer functions: ${longest.map((f) => `${f.where} (${f.lines})`).join(', ')}`);
    expect(all.filter((f) => f.lines > LIMIT)).toEqual([]);
  });
});
