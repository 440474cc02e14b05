import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import {
  BLOCK_CAP_MS,
  CLAIM_RETRY_MS,
  DETECTION_PURGE_MS,
  PROTECTION_RECENT_MAX,
  RATE_LIMITS,
  SEED_COOLDOWN_MS,
  SELF_CLAIM_UNUSED_LAPSE_MS,
  SERVER_GAP_MS,
} from '../constants.ts';

// Each Lua script lives in its own file, named for what it does, with a header listing its
// KEYS, ARGV and result (BullMQ style). `--- @include "name"` pulls in includes/<name>.lua
// (`spec` is generated: SPEC_INCLUDE).
// They are defined once per connection; ioredis sends EVALSHA and falls back to EVAL, so a
// Redis restart (which forgets loaded scripts) needs nothing from us.

const dir = import.meta.dirname;

type LuaValue = number | string | { readonly [name: string]: LuaValue };
const luaTable = (value: LuaValue): string =>
  typeof value === 'number'
    ? String(value)
    : typeof value === 'string'
      ? JSON.stringify(value)
      : `{ ${Object.entries(value)
          .map(([name, field]) => `${name} = ${luaTable(field)}`)
          .join(', ')} }`;

/** The constants of the spec the scripts need (store/constants.ts), as the Lua table SPEC holds them. */
export const SPEC = {
  blockCapMs: BLOCK_CAP_MS,
  seedCooldownMs: SEED_COOLDOWN_MS,
  serverGapMs: SERVER_GAP_MS,
  detectionPurgeMs: DETECTION_PURGE_MS,
  protectionRecentMax: PROTECTION_RECENT_MAX,
  selfClaimUnusedLapseMs: SELF_CLAIM_UNUSED_LAPSE_MS,
  claimRetryMs: CLAIM_RETRY_MS,
  reportPerIp: RATE_LIMITS.reportPerIp,
  reportPerKey: RATE_LIMITS.reportPerKey,
} as const;

/**
 * `--- @include "spec"`: SPEC as a Lua table. A report's script takes these from its source rather
 * than as arguments: each argument costs ioredis and Redis work on every call, and these never
 * change.
 */
export const SPEC_INCLUDE = `-- The spec's constants (generated from store/constants.ts by scripts/index.ts).
local SPEC = ${luaTable(SPEC)}
`;

function resolveIncludes(source: string): string {
  return source.replace(/^--- @include "([a-z0-9-]+)"$/gm, (_, name: string) =>
    name === 'spec' ? SPEC_INCLUDE : readFileSync(join(dir, 'includes', `${name}.lua`), 'utf8'),
  );
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

const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.lua'))
  .map((f) => {
    const source = readFileSync(join(dir, f), 'utf8');
    return { name: commandName(f), numberOfKeys: keyCount(f, source), lua: resolveIncludes(source) };
  });

type Arg = string | number;
/** Raw script commands; store modules wrap each in a typed function. */
export interface ScriptCommands {
  reportSeed(...args: Arg[]): Promise<[string, string, number]>;
  admitReport(...args: Arg[]): Promise<string[]>;
  admitAndDecideReport(...args: Arg[]): Promise<(string | number)[]>;
  settleExpiredWindows(...args: Arg[]): Promise<number>;
  checkSeedBlock(...args: Arg[]): Promise<string>;
  countRefusedView(...args: Arg[]): Promise<number>;
  countRequest(...args: Arg[]): Promise<[number, string]>;
  issueHttpKey(...args: Arg[]): Promise<[string, number, string]>;
  revokeRegistration(...args: Arg[]): Promise<number>;
  checkSelfClaim(...args: Arg[]): Promise<[string, number | string, number?]>;
  issueSelfClaim(...args: Arg[]): Promise<[string, number | string, number?]>;
  issueClaimCode(...args: Arg[]): Promise<number>;
  cancelClaimCode(...args: Arg[]): Promise<number>;
  claimWithCode(...args: Arg[]): Promise<[string, string?]>;
  decideReview(...args: Arg[]): Promise<[string, string?, string?]>;
  readMapBuffer(...args: Arg[]): Promise<Buffer[]>;
  cacheMap(...args: (Arg | Buffer)[]): Promise<number>;
  trimMapCache(...args: Arg[]): Promise<number>;
  touchCachedMaps(...args: Arg[]): Promise<number>;
  migrateSeedIndex(...args: Arg[]): Promise<[number, number]>;
  changeBlocklist(...args: Arg[]): Promise<number>;
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
  for (const { name, numberOfKeys, lua } of sources) {
    redis.defineCommand(name, { numberOfKeys, lua });
  }
}

const digests = sources.map(({ lua }) => createHash('sha1').update(lua).digest('hex'));

/**
 * Makes sure Redis holds every script (readiness): the ones it lacks (a restarted Redis forgets
 * them all) are loaded now rather than on their first call. Rejects when one cannot be loaded.
 */
export async function ensureScriptsLoaded(redis: Redis): Promise<void> {
  const present = (await redis.script('EXISTS', ...digests)) as number[];
  await Promise.all(sources.map(({ lua }, i) => (present[i] === 1 ? undefined : redis.script('LOAD', lua))));
}
