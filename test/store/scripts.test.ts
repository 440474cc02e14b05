import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { inlineIncludes, SCRIPTS } from '../../store/scripts/index.ts';

// The Lua loader (store/scripts/index.ts) and what it loads: includes resolved depth first, each
// once, circles refused; every file naming the includes it uses; ScriptCommands, the typed face
// of the scripts, saying what the files say (names, key counts); no spec constant sent as ARGV.

const STORE = fileURLToPath(new URL('../../store/', import.meta.url));
const SCRIPT_DIR = join(STORE, 'scripts');
const INCLUDE_DIR = join(SCRIPT_DIR, 'includes');

const luaFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.lua'));
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('the include loader', () => {
  const from = (files: Record<string, string>) => (name: string) => files[name];

  it('inlines includes depth first, an include before what names it, each once', () => {
    const lua = inlineIncludes(
      'top.lua',
      '--- @include "b"\n--- @include "c"\nbody()\n',
      from({ a: 'A()\n', b: '--- @include "a"\nB()\n', c: '--- @include "a"\n--- @include "b"\nC()\n' }),
    );
    expect(lua.split('\n').filter(Boolean)).toEqual(['A()', 'B()', 'C()', 'body()']);
  });

  it('refuses includes that name each other in a circle, naming the circle', () => {
    const cycle = from({ a: '--- @include "b"\n', b: '--- @include "c"\n', c: '--- @include "a"\n' });
    expect(() => inlineIncludes('top.lua', '--- @include "a"\n', cycle)).toThrow(
      'top.lua: includes in a circle: a -> b -> c -> a',
    );
    expect(() => inlineIncludes('top.lua', '--- @include "a"\n', from({ a: '--- @include "a"\n' }))).toThrow(
      'a -> a',
    );
  });

  it('names a missing include and who named it', () => {
    expect(() =>
      inlineIncludes('top.lua', '--- @include "a"\n', from({ a: '--- @include "nope"\n' })),
    ).toThrow('top.lua: no include "nope" (includes/nope.lua), named by a');
  });
});

/** Lua code without its comments and string literals (so a header's words are not uses). */
function luaCode(text: string): string {
  return text.replace(/--\[\[[\s\S]*?\]\]|--[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, ' ');
}
const namedIncludes = (text: string) =>
  [...text.matchAll(/^--- @include "([a-z0-9-]+)"$/gm)].map((m) => m[1]!);
/** The names a file defines at its top: local functions and local constants. */
const definitions = (text: string) =>
  [...text.matchAll(/^local (?:function )?([A-Za-z_]\w*)/gm)].map((m) => m[1]!);
/** Names a file uses (not fields: `a.b` uses a). */
const uses = (text: string) => new Set(luaCode(text).match(/(?<![.:\w])[A-Za-z_]\w*/g));

describe('the script files', () => {
  const includes = new Map(luaFiles(INCLUDE_DIR).map((f) => [f.replace(/\.lua$/, ''), read(INCLUDE_DIR, f)]));
  const definedBy = new Map<string, string>();
  for (const [include, text] of includes) for (const name of definitions(text)) definedBy.set(name, include);

  /** An include and every include below it. */
  const reach = (include: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(include)) return seen;
    seen.add(include);
    for (const below of namedIncludes(includes.get(include) ?? '')) reach(below, seen);
    return seen;
  };

  it('each define their names once, across all includes', () => {
    const all = [...includes.values()].flatMap(definitions);
    expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]);
  });

  it('name every include whose names they use, and no other', () => {
    const files = [
      ...luaFiles(SCRIPT_DIR).map((f) => ({ file: f, text: read(SCRIPT_DIR, f), self: undefined })),
      ...[...includes].map(([name, text]) => ({ file: `includes/${name}.lua`, text, self: name })),
    ];
    expect(files.length).toBeGreaterThan(40);
    const wrong = files.flatMap(({ file, text, self }) => {
      const named = namedIncludes(text);
      const reachable = new Set(named.flatMap((include) => [...reach(include)]));
      const used = [...uses(text)].flatMap((name) => {
        const include = definedBy.get(name);
        return include && include !== self ? [{ name, include }] : [];
      });
      return [
        ...used
          .filter(({ include }) => !reachable.has(include))
          .map(({ name, include }) => `${file} uses ${name} without naming "${include}"`),
        ...named
          .filter((include) => !used.some((u) => u.include === include))
          .map((include) => `${file} names "${include}" but uses none of its names`),
      ];
    });
    expect(wrong).toEqual([]);
  });

  it('have a header saying their KEYS, ARGV and result', () => {
    const lacking = luaFiles(SCRIPT_DIR).filter(
      (f) =>
        !/^\s*KEYS:/m.test(read(SCRIPT_DIR, f)) ||
        !/^\s*ARGV:/m.test(read(SCRIPT_DIR, f)) ||
        !/^\s*Returns:/m.test(read(SCRIPT_DIR, f)),
    );
    expect(lacking).toEqual([]);
  });
});

describe('ScriptCommands', () => {
  const path = join(SCRIPT_DIR, 'index.ts');
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const face = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ScriptCommands',
  );

  it('has one method per script file, taking one Key per key its header declares', () => {
    const scripts = new Set(SCRIPTS.map((s) => s.name));
    const declared = Object.fromEntries(
      face!.members.filter(ts.isMethodSignature).map((m) => {
        const name = m.name.getText(file);
        // ioredis's twin with Buffer replies stands for the script.
        const script = name.endsWith('Buffer') && scripts.has(name.slice(0, -6)) ? name.slice(0, -6) : name;
        return [script, m.parameters.filter((p) => p.type?.getText(file) === 'Key').length];
      }),
    );
    expect(declared).toEqual(Object.fromEntries(SCRIPTS.map((s) => [s.name, s.numberOfKeys])));
    expect(Object.values(declared).some((keys) => keys > 0)).toBe(true);
  });
});

describe('the store modules', () => {
  it('send no constant of store/constants.ts to a script: the scripts read them from SPEC', () => {
    const commands = new Set(SCRIPTS.flatMap((s) => [s.name, `${s.name}Buffer`]));
    const sent = readdirSync(STORE)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => constantsSent(join(STORE, f), commands));
    expect(sent).toEqual([]);
  });
});

/**
 * Where a module passes a constant it imports from constants.ts to a script command, directly or
 * through a function of its own that builds the arguments (`...ruleArgs(ctx, req)`).
 */
function constantsSent(path: string, commands: ReadonlySet<string>): string[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const constants = new Set<string>();
  const helpers = new Map<string, ts.Node>();
  for (const s of file.statements) {
    if (ts.isImportDeclaration(s) && (s.moduleSpecifier as ts.StringLiteral).text === './constants.ts') {
      const bindings = s.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) constants.add(e.name.text);
    }
    if (ts.isFunctionDeclaration(s) && s.name && s.body) helpers.set(s.name.text, s.body);
  }
  const found: string[] = [];
  const search = (node: ts.Node, seen: Set<ts.Node>): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (ts.isIdentifier(node) && constants.has(node.text)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`store/${path.split('/').at(-1)}:${line + 1} ${node.text}`);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && helpers.has(node.expression.text)) {
      search(helpers.get(node.expression.text)!, seen);
    }
    ts.forEachChild(node, (child) => search(child, seen));
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText(file).endsWith('redis') &&
      commands.has(node.expression.name.text)
    ) {
      for (const arg of node.arguments) search(arg, new Set());
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...new Set(found)];
}
