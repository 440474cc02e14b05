import { z } from 'zod';
import type { StoreContext } from './context.ts';

// Version info of spec 2.9: `latest` and `downloadUrl` come from the release host, `minimum` from
// the operator. Plugin versions are compared as x.y.z; a version that does not parse counts as
// below any minimum, since we cannot show it is new enough.

export const SemverSchema = z.string().regex(/^\d{1,9}\.\d{1,9}\.\d{1,9}$/, 'a version like 1.2.0');

export interface VersionInfo {
  latest: string | null;
  minimum: string | null;
  downloadUrl: string | null;
}

const key = (ctx: StoreContext) => `${ctx.prefix}version`;

export async function getVersionInfo(ctx: StoreContext): Promise<VersionInfo> {
  const [latest, minimum, downloadUrl] = await ctx.redis.hmget(key(ctx), 'latest', 'minimum', 'downloadUrl');
  return { latest: latest ?? null, minimum: minimum ?? null, downloadUrl: downloadUrl ?? null };
}

/** `actor` records a change in the audit trail. */
export async function setMinimumVersion(
  ctx: StoreContext,
  minimum: string,
  { actor }: { actor?: string } = {},
): Promise<VersionInfo> {
  const version = SemverSchema.parse(minimum);
  await ctx.redis.changeMinimumVersion(ctx.prefix, version, ctx.clock.scriptArg, actor ?? '');
  return getVersionInfo(ctx);
}

export async function clearMinimumVersion(
  ctx: StoreContext,
  { actor }: { actor?: string } = {},
): Promise<VersionInfo> {
  await ctx.redis.changeMinimumVersion(ctx.prefix, '', ctx.clock.scriptArg, actor ?? '');
  return getVersionInfo(ctx);
}

export async function saveLatestRelease(
  ctx: StoreContext,
  release: { latest: string; downloadUrl: string },
): Promise<void> {
  await ctx.redis.hset(key(ctx), 'latest', release.latest, 'downloadUrl', release.downloadUrl);
}

function parseVersion(v: string): number[] | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** True when `version` is below `minimum` (an unparsable version is below every minimum). */
export function isBelowMinimum(version: string, minimum: string): boolean {
  const v = parseVersion(version);
  const min = parseVersion(minimum);
  if (!min) return false;
  if (!v) return true;
  for (let i = 0; i < 3; i++) {
    if (v[i]! !== min[i]!) return v[i]! < min[i]!;
  }
  // 1.2.0-beta comes before 1.2.0.
  return /^v?\d+\.\d+\.\d+-/.test(version.trim());
}
