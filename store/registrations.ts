import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CREDENTIAL_KINDS, HTTP_KEYS_PER_OWNER, type CredentialKind } from './constants.ts';
import type { StoreContext } from './context.ts';
import { hashCredential, isWellFormedCredential, newCredential } from './credentials.ts';
import { results } from './redis.ts';

/** What a successful issue returns; the credential is shown this once and never again. */
export interface IssuedCredential {
  serverId: string;
  credential: string;
  issuedAt: string;
}

/** The record kept per registration (no secret in it, only the credential's hash). */
export const RegistrationSchema = z.object({
  serverId: z.uuid(),
  kind: z.enum(CREDENTIAL_KINDS),
  issuedAt: z.iso.datetime(),
  ip: z.string().nullable(),
  port: z.number().int().nullable(),
  clientName: z.string().nullable(),
  owner: z.string().nullable(),
  lastReportAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type Registration = z.infer<typeof RegistrationSchema>;

export interface AuthenticatedKey {
  serverId: string;
  kind: CredentialKind;
  /** The registered IP for game-server kinds; null for HTTP keys. */
  ip: string | null;
}

export class TooManyKeysError extends Error {
  override name = 'TooManyKeysError';
  readonly live: number;
  readonly max: number;

  constructor(live: number, max: number) {
    super(`this owner already has ${live} live HTTP keys (at most ${max}); revoke one first`);
    this.live = live;
    this.max = max;
  }
}

const iso = (ms: string | undefined) => (ms ? new Date(Number(ms)).toISOString() : null);

function toRegistration(h: Record<string, string>): Registration {
  return {
    serverId: h.serverId ?? '',
    kind: h.kind as CredentialKind,
    issuedAt: iso(h.issuedAt) ?? '',
    ip: h.ip ?? null,
    port: h.port ? Number(h.port) : null,
    clientName: h.clientName ?? null,
    owner: h.owner ?? null,
    lastReportAt: iso(h.lastReportAt),
    revokedAt: iso(h.revoked),
  };
}

/**
 * Issues an HTTP key. `owner` is the chat user it belongs to (at most 3 live each); keys the
 * operator issues from the CLI without an owner are not limited. `actor` records it in the audit
 * trail.
 */
export async function issueHttpKey(
  ctx: StoreContext,
  { owner, label, actor }: { owner?: string; label?: string; actor?: string } = {},
): Promise<IssuedCredential> {
  const serverId = randomUUID();
  const credential = newCredential();
  const [outcome, live, issuedAt] = await ctx.redis.issueHttpKey(
    ctx.prefix,
    serverId,
    hashCredential(credential),
    ctx.clock.scriptArg,
    owner ?? '',
    label ?? '',
    actor ?? '',
  );
  if (outcome !== 'issued') throw new TooManyKeysError(live, HTTP_KEYS_PER_OWNER);
  return { serverId, credential, issuedAt: new Date(Number(issuedAt)).toISOString() };
}

/** The key behind a presented credential, or null for a malformed, unknown or revoked one. */
export async function authenticate(ctx: StoreContext, credential: string): Promise<AuthenticatedKey | null> {
  if (!isWellFormedCredential(credential)) return null;
  const found = await ctx.redis.hgetall(`${ctx.prefix}credential:${hashCredential(credential)}`);
  if (!found.serverId || !found.kind) return null;
  return { serverId: found.serverId, kind: found.kind as CredentialKind, ip: found.ip || null };
}

/**
 * True when the registration was live and is now revoked. With `owner` (an owner's own revoke)
 * only a registration of theirs; `actor` records it in the audit trail.
 */
export async function revokeRegistration(
  ctx: StoreContext,
  serverId: string,
  { actor, owner }: { actor?: string; owner?: string } = {},
): Promise<boolean> {
  const revoked = await ctx.redis.revokeRegistration(
    ctx.prefix,
    serverId,
    ctx.clock.scriptArg,
    actor ?? '',
    owner ?? '',
  );
  return revoked === 1;
}

export async function getRegistration(ctx: StoreContext, serverId: string): Promise<Registration | null> {
  const h = await ctx.redis.hgetall(`${ctx.prefix}server:${serverId}`);
  return h.serverId ? toRegistration(h) : null;
}

/** Live registrations, oldest first. */
export async function listRegistrations(ctx: StoreContext): Promise<Registration[]> {
  return readRegistrations(ctx, await ctx.redis.zrange(`${ctx.prefix}servers`, '0', '-1'));
}

/** The live registrations of a chat user (HTTP keys, and servers their claim codes registered), oldest first. */
export async function listOwnedRegistrations(ctx: StoreContext, owner: string): Promise<Registration[]> {
  const owned = await readRegistrations(ctx, await ctx.redis.smembers(`${ctx.prefix}owner:${owner}`));
  return owned.sort((a, b) => a.issuedAt.localeCompare(b.issuedAt) || a.serverId.localeCompare(b.serverId));
}

async function readRegistrations(ctx: StoreContext, ids: string[]): Promise<Registration[]> {
  const pipeline = ctx.redis.pipeline();
  for (const id of ids) pipeline.hgetall(`${ctx.prefix}server:${id}`);
  const rows = results(await pipeline.exec()) as Record<string, string>[];
  return rows.filter((h) => h.serverId).map(toRegistration);
}

export interface RegistrationPage {
  servers: Registration[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** A cursor names the last registration shown: its issue time (the `servers` score) and id. */
const encodeCursor = (score: string, serverId: string) =>
  Buffer.from(`${score}:${serverId}`).toString('base64url');

function decodeCursor(cursor: string): { score: string; serverId: string } | null {
  const m = /^(\d{1,16}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? { score: m[1]!, serverId: m[2]! } : null;
}

export class BadCursorError extends Error {
  override name = 'BadCursorError';
  constructor() {
    super('cursor is not one a previous page gave');
  }
}

/**
 * Live registrations oldest first, `limit` at a time, optionally of one kind. Reads the `servers`
 * index in chunks from the cursor on (ties in issue time are ordered by id, as Redis orders them),
 * so a page costs about what it shows, whatever the total.
 */
export async function listRegistrationPage(
  ctx: StoreContext,
  { kind, limit, cursor }: { kind?: CredentialKind; limit: number; cursor?: string },
): Promise<RegistrationPage> {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  if (cursor !== undefined && !after) throw new BadCursorError();
  const chunk = Math.max(limit + 1, 100);
  const servers: Registration[] = [];
  let scores: string[] = [];
  for (let offset = 0; ; offset += chunk) {
    const flat = await ctx.redis.zrangebyscore(
      `${ctx.prefix}servers`,
      after ? after.score : '-inf',
      '+inf',
      'WITHSCORES',
      'LIMIT',
      offset,
      chunk,
    );
    const ids = flat.filter((_, i) => i % 2 === 0);
    const idScores = flat.filter((_, i) => i % 2 === 1);
    const pipeline = ctx.redis.pipeline();
    for (const id of ids) pipeline.hgetall(`${ctx.prefix}server:${id}`);
    const rows = results(await pipeline.exec()) as Record<string, string>[];
    for (const [i, row] of rows.entries()) {
      const seen = after && idScores[i] === after.score && ids[i]! <= after.serverId;
      if (seen || !row.serverId || (kind && row.kind !== kind)) continue;
      servers.push(toRegistration(row));
      scores.push(idScores[i]!);
      if (servers.length > limit) break;
    }
    if (servers.length > limit || ids.length < chunk) break;
  }
  const more = servers.length > limit;
  const page = servers.slice(0, limit);
  scores = scores.slice(0, limit);
  const last = page.at(-1);
  return { servers: page, nextCursor: more && last ? encodeCursor(scores.at(-1)!, last.serverId) : null };
}
