import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo.ts';
import { PRODUCT_FILES, fromRoot, partOf } from './product.ts';

// Issue 36.5: the product's import graph, read with TypeScript's parser (type-only imports count:
// they tie files together as much as any), has no circle, and every import runs down the layers.

/**
 * The product's parts in layers, lowest first: a part imports only parts of its own layer or
 * below. The store is the lowest, beside net: runtime opens the store, so the store needs nothing
 * of how a process runs.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['store', 'net'],
  ['runtime'],
  ['generator'],
  // The map renderer, which viewer/src and the link preview share.
  ['renderer'],
  ['api', 'bot', 'scripts', 'viewer', 'viewer/src'],
];
/** Imports forbidden within one layer: the API serves the viewer's built files, not its sources. */
const NEVER = [{ from: 'api', to: 'viewer/src' }];

type Graph = ReadonlyMap<string, readonly string[]>;

/** What a file names in import and export declarations, import() and import types. */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(REPO_ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let named: ts.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) named = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      named = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) named = node.argument.literal;
    if (named && ts.isStringLiteralLike(named)) found.push(named.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each product file and the files of this repository it imports (packages are not ours). */
function importGraph(files: readonly string[]): Graph {
  return new Map(
    files.map((file) => [
      file,
      [
        ...new Set(
          specifiers(file)
            .filter((s) => s.startsWith('.'))
            .map((s) => fromRoot(normalize(join(REPO_ROOT, dirname(file), s))))
            .filter((target) => existsSync(join(REPO_ROOT, target))),
        ),
      ],
    ]),
  );
}

/** The circles of a graph (its strongly connected components that loop), each sorted (Tarjan). */
function circlesOf(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1 || graph.get(node)?.includes(node)) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const layerOf = new Map(LAYERS.flatMap((parts, layer) => parts.map((part) => [part, layer] as const)));

/** Imports that run back up: to a higher layer, a forbidden part, or out of the product. */
function upwardOf(graph: Graph): string[] {
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter((target) => {
        const [from, to] = [partOf(file), partOf(target)];
        if (!graph.has(target)) return true;
        if (from === to) return false;
        return layerOf.get(to)! > layerOf.get(from)! || NEVER.some((n) => n.from === from && n.to === to);
      })
      .map((target) => `${file} -> ${target}`),
  );
}

describe('the product import graph', () => {
  const graph = importGraph(PRODUCT_FILES);

  it('is read from every product folder, and only from them', () => {
    for (const file of [
      'store/index.ts',
      'runtime/config.ts',
      'api/app.ts',
      'viewer/src/main.ts',
      'bot/bot.ts',
      'renderer/render-map.ts',
    ])
      expect(graph.has(file)).toBe(true);
    expect(
      PRODUCT_FILES.filter((f) => /^(test|bench|docs|deploy|node_modules)\/|^viewer\/dist\//.test(f)),
    ).toEqual([]);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it('places every product folder in a layer', () => {
    const parts = [...new Set(PRODUCT_FILES.map(partOf))];
    expect(parts.filter((part) => !layerOf.has(part))).toEqual([]);
  });

  it('has no circle', () => {
    expect(circlesOf(graph)).toEqual([]);
  });

  it('has no import running back up the layers', () => {
    expect(upwardOf(graph)).toEqual([]);
  });
});

describe('the graph checks', () => {
  const graph = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges));

  it('find circles, however long, and a file importing itself', () => {
    const g = graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e', 'a'] });
    expect(circlesOf(g)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(circlesOf(graph({ a: ['b'], b: [] }))).toEqual([]);
  });

  it('find imports against the layers, a forbidden pair, and imports out of the product', () => {
    const g = graph({
      'store/a.ts': ['runtime/b.ts', 'store/c.ts', 'test/x.ts'],
      'runtime/b.ts': ['store/a.ts'],
      'store/c.ts': [],
      'api/d.ts': ['viewer/src/e.ts', 'generator/f.ts'],
      'viewer/src/e.ts': ['api/d.ts'],
      'generator/f.ts': [],
    });
    expect(upwardOf(g)).toEqual([
      'store/a.ts -> runtime/b.ts',
      'store/a.ts -> test/x.ts',
      'api/d.ts -> viewer/src/e.ts',
    ]);
  });
});
