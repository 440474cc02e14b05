import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo.ts';
import { PRODUCT_FILES } from './product.ts';

// Issue 36.5: no function in the product is longer than 100 lines, measured as the check
// does it, with TypeScript's parser: every function declaration, expression, arrow, method,
// constructor and accessor, from its first line to its last.

const LIMIT = 100;

interface FunctionLength {
  /** `file name`, the file from the repository's root. */
  where: string;
  lines: number;
}

function functionLengths(path: string, text = readFileSync(join(REPO_ROOT, path), 'utf8')): FunctionLength[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name ? node.name.getText(file) : '(anonymous)';
      out.push({ where: `${path} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('product functions', () => {
  it('the measure counts a function from its first line to its last', () => {
    const text = [
      'export function f() {',
      ...Array.from({ length: 160 }, () => '  g();'),
      '}',
      'const a = () => 1;',
      'class C {',
      '  m() {',
      '    return 1;',
      '  }',
      '}',
    ];
    const [f, a, m] = functionLengths('x.ts', text.join('\n'));
    expect(f).toEqual({ where: 'x.ts f', lines: 162 });
    expect(a?.lines).toBe(1);
    expect(m).toEqual({ where: 'x.ts m', lines: 3 });
  });

  it(`are at most ${LIMIT} lines long`, () => {
    const all = PRODUCT_FILES.flatMap((path) => functionLengths(path));
    expect(all.length).toBeGreaterThan(1000);
    expect(all.filter((f) => f.lines > LIMIT)).toEqual([]);
  });
});
