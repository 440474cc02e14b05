// Helpers for the claim flows of spec 4.1 (self-claim) and 4.4 (plugin claim), over real HTTP.
import type { TestApi } from './api.ts';
import { type HttpAnswer, send } from './http.ts';

export interface Verified {
  status: 'verified';
  serverId: string;
  credential: string;
  issuedAt: string;
}

export type ClaimBody = Verified & {
  error?: string;
  reason?: string;
  retryAfterSeconds?: number;
  live?: number;
  max?: number;
  minimum?: string;
  downloadUrl?: string;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The request IP the API believes (TRUST_PROXY=loopback trusts our loopback peer). */
export const from = (ip: string) => ({ 'x-forwarded-for': ip });

export function selfClaim(
  api: TestApi,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<ClaimBody>> {
  return send<ClaimBody>(`${api.base}/v1/servers/claim`, { json: body, headers });
}

export function pluginClaim(
  api: TestApi,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<ClaimBody>> {
  return send<ClaimBody>(`${api.base}/plugin/v1/claim`, { json: body, headers });
}

/** A round_start report with `credential`; returns the whole response. */
export function report(
  api: TestApi,
  credential: string,
  {
    seed = 4242,
    port = 7777,
    headers = {},
  }: { seed?: number; port?: number; headers?: Record<string, string> } = {},
) {
  return send<{ ok?: boolean; blockedUntil?: string | null; error?: string }>(
    `${api.base}/plugin/v1/report`,
    {
      headers: { authorization: `Bearer ${credential}`, ...headers },
      json: { event: 'round_start', seed, port },
    },
  );
}

/** The raw Redis record of a registration (every field the scripts wrote). */
export function registrationHash(api: TestApi, serverId: string): Promise<Record<string, string>> {
  return api.store.ctx.redis.hgetall(`${api.config.REDIS_PREFIX}server:${serverId}`);
}

/** Keys under the API's prefix matching `pattern` (e.g. `review:*`). */
export async function keysOf(api: TestApi, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await api.store.ctx.redis.scan(
      cursor,
      'MATCH',
      `${api.config.REDIS_PREFIX}${pattern}`,
      'COUNT',
      1000,
    );
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}
