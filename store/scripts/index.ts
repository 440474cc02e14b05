import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import * as constants from '../constants.ts';

// The Lua scripts, loaded as BullMQ's script loader loads its own. To add one:
// - A script is a file <name>.lua here, run as the command <name> in camelCase (read-map.lua is
//   readMap; ioredis adds readMapBuffer, its twin with Buffer replies). Its header lists KEYS,
//   ARGV and the result; the `[n]` marks of its `KEYS:` line are the one statement of how many
//   keys it takes. Its method in ScriptCommands below takes one `Key` per key, then
//   `...args: Arg[]` (test/store/scripts.test.ts holds names and key counts to the files).
// - An include is a file includes/<name>.lua of local functions and constants. Every file, script
//   or include, names each include whose names it uses, on a line `--- @include "<name>"` after
//   its header, and nothing more: the loader inlines an include where it is first named, its own
//   includes before it, once per script. Includes that name each other in a circle are refused.
// - SPEC holds the constants of store/constants.ts, each under its name in camelCase
//   (SEED_COOLDOWN_MS is SPEC.seedCooldownMs, RATE_LIMITS.reportPerIp SPEC.rateLimits.reportPerIp),
//   in every script: no script takes one as an argument. The table is built on every call, so a
//   script's SPEC holds just what its code names (`SPEC.rateLimits.reportPerIp.limit`).
// Scripts are defined once per connection; ioredis sends EVALSHA and falls back to EVAL, so a
// Redis restart (which forgets loaded scripts) needs nothing from us.

const dir = import.meta.dirname;

const INCLUDE = /^--- @include "([a-z0-9-]+)"$/gm;

/** An include's source by its name, or undefined when there is none. */
export type ReadInclude = (name: string) => string | undefined;

/**
 * `source` with the includes it names inlined, depth first, each once (see the header). `file`
 * names the script in errors: an include that is missing, or includes that name each other in a
 * circle.
 */
export function inlineIncludes(file: string, source: string, readInclude: ReadInclude): string {
  const inlined = new Set<string>();
  const expand = (text: string, chain: readonly string[]): string =>
    text.replace(INCLUDE, (_, name: string) => {
      const path = [...chain, name];
      if (chain.includes(name)) throw new Error(`${file}: includes in a circle: ${path.join(' -> ')}`);
      if (inlined.has(name)) return '';
      inlined.add(name);
      const include = readInclude(name);
      if (include === undefined) {
        throw new Error(
          `${file}: no include "${name}" (includes/${name}.lua), named by ${chain.at(-1) ?? file}`,
        );
      }
      return expand(include, path);
    });
  return expand(source, []);
}

type Constants = typeof constants;
/** SEED_COOLDOWN_MS -> seedCooldownMs */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<S>;
const camelCase = (name: string): string =>
  name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The constants of store/constants.ts as the Lua table SPEC holds them. */
export const SPEC = Object.fromEntries(
  Object.entries(constants).map(([name, value]) => [camelCase(name), value]),
) as { readonly [N in keyof Constants as CamelCase<N>]: Constants[N] };

type LuaValue = number | string | boolean | readonly LuaValue[] | { readonly [name: string]: LuaValue };
const luaValue = (value: LuaValue): string => {
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `{ ${value.map(luaValue).join(', ')} }`;
  const fields = Object.entries(value).map(
    ([name, field]) =>
      `${/^[A-Za-z_]\w*$/.test(name) ? name : `[${JSON.stringify(name)}]`} = ${luaValue(field)}`,
  );
  return `{ ${fields.join(', ')} }`;
};

/** The part of `value` on `paths` (a path that ends takes all below it); `at` names it in errors. */
function pick(value: LuaValue, paths: readonly string[][], at: string): LuaValue {
  if (paths.some((path) => path.length === 0) || typeof value !== 'object' || Array.isArray(value))
    return value;
  const object = value as { readonly [name: string]: LuaValue };
  const heads = [...new Set(paths.map(([head]) => head!))].sort();
  return Object.fromEntries(
    heads.map((head) => {
      if (!Object.hasOwn(object, head)) throw new Error(`${at}.${head} is none of store/constants.ts`);
      const rest = paths.filter(([first]) => first === head).map((path) => path.slice(1));
      return [head, pick(object[head]!, rest, `${at}.${head}`)];
    }),
  );
}

/**
 * `local SPEC = { ... }` with what the script `file`'s `lua` names of it (`SPEC.a.b` takes SPEC.a.b
 * whole), or nothing when it names none; without them, all of SPEC.
 */
export function specLua(lua?: string, file?: string): string {
  const paths =
    lua === undefined ? [[]] : [...lua.matchAll(/\bSPEC((?:\.\w+)+)/g)].map((m) => m[1]!.slice(1).split('.'));
  if (paths.length === 0) return '';
  return `local SPEC = ${luaValue(pick(SPEC as LuaValue, paths, file ? `${file}: SPEC` : 'SPEC'))}\n`;
}

/** The header's `KEYS:` line is the one statement of how many keys a script takes. */
function keyCount(file: string, source: string): number {
  const line = /^\s*KEYS:(.*)$/m.exec(source)?.[1];
  if (line === undefined) throw new Error(`${file}: the header lacks a KEYS: line`);
  return line.match(/\[\d+\]/g)?.length ?? 0;
}

function commandName(file: string): string {
  return file.replace(/\.lua$/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

const readInclude: ReadInclude = (name) => {
  const path = join(dir, 'includes', `${name}.lua`);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
};

/** Every script, as defineCommand takes it: its command name, key count and whole source. */
export const SCRIPTS: readonly { name: string; numberOfKeys: number; lua: string }[] = readdirSync(dir)
  .filter((f) => f.endsWith('.lua'))
  .map((file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const code = inlineIncludes(file, source, readInclude);
    return { name: commandName(file), numberOfKeys: keyCount(file, source), lua: specLua(code, file) + code };
  });

/** A key a script declares under KEYS; everything after its keys is ARGV. */
type Key = string;
type Arg = string | number;
/** Raw script commands; store modules wrap each in a typed function. */
export interface ScriptCommands {
  reportSeed(...args: Arg[]): Promise<[string, string, number]>;
  admitReport(...args: Arg[]): Promise<string[]>;
  admitAndDecideReport(...args: Arg[]): Promise<(string | number)[]>;
  settleExpiredWindows(...args: Arg[]): Promise<number>;
  checkSeedBlock(...args: Arg[]): Promise<string>;
  countRefusedView(...args: Arg[]): Promise<number>;
  countRequest(counter: Key, ...args: Arg[]): Promise<[number, string]>;
  issueHttpKey(...args: Arg[]): Promise<[string, number, string]>;
  revokeRegistration(...args: Arg[]): Promise<number>;
  checkSelfClaim(...args: Arg[]): Promise<[string, number | string, number?]>;
  issueSelfClaim(...args: Arg[]): Promise<[string, number | string, number?]>;
  issueClaimCode(...args: Arg[]): Promise<[string, number?, number?, number?]>;
  cancelClaimCode(...args: Arg[]): Promise<number>;
  claimWithCode(...args: Arg[]): Promise<[string, string?]>;
  decideReview(...args: Arg[]): Promise<[string, string?, string?]>;
  readMapBuffer(uncachedCounter: Key, ...args: Arg[]): Promise<Buffer[]>;
  cacheMap(...args: (Arg | Buffer)[]): Promise<number>;
  trimMapCache(...args: Arg[]): Promise<number>;
  touchCachedMaps(...args: Arg[]): Promise<number>;
  migrateSeedIndex(...args: Arg[]): Promise<[number, number]>;
  changeBlocklist(...args: Arg[]): Promise<number>;
  changeMinimumVersion(...args: Arg[]): Promise<number>;
  recordAudit(...args: Arg[]): Promise<number>;
  sweepReviews(...args: Arg[]): Promise<string[]>;
  buildHiddenSeeds(...args: Arg[]): Promise<number>;
  readJob(...args: Arg[]): Promise<[string, (string | number)?]>;
  readSeedPage(...args: Arg[]): Promise<(string | number)[]>;
  startJob(...args: (Arg | Buffer)[]): Promise<number>;
  finishJob(...args: (Arg | Buffer)[]): Promise<number>;
  failJob(...args: Arg[]): Promise<string>;
  requeueStaleJobs(...args: Arg[]): Promise<number>;
  recordDetection(...args: Arg[]): Promise<string>;
  refreshSeedSummaries(...args: Arg[]): Promise<number>;
}

export function defineScripts(redis: Redis): void {
  for (const { name, numberOfKeys, lua } of SCRIPTS) {
    redis.defineCommand(name, { numberOfKeys, lua });
  }
}

const digests = SCRIPTS.map(({ lua }) => createHash('sha1').update(lua).digest('hex'));

/**
 * Makes sure Redis holds every script (readiness): the ones it lacks (a restarted Redis forgets
 * them all) are loaded now rather than on their first call. Rejects when one cannot be loaded.
 */
export async function ensureScriptsLoaded(redis: Redis): Promise<void> {
  const present = (await redis.script('EXISTS', ...digests)) as number[];
  await Promise.all(SCRIPTS.map(({ lua }, i) => (present[i] === 1 ? undefined : redis.script('LOAD', lua))));
}
