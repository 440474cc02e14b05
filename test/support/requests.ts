/** Reports as the "rules for every call" tests send them, and what their answers carry. */
import type { TestApi } from './api.ts';
import { bearer, send } from './http.ts';

export const REPORT_PATHS = ['/plugin/v1/report', '/v1/servers/report'] as const;
export type ReportPath = (typeof REPORT_PATHS)[number];

export const validReport = (extra: Record<string, unknown> = {}) => ({
  event: 'round_start',
  seed: 123456,
  port: 7777,
  ...extra,
});

/** One report with a bearer credential (and any extra headers). */
export function sendReport(
  api: Pick<TestApi, 'base'>,
  credential: string | null,
  body: unknown = validReport(),
  { path = '/plugin/v1/report', headers = {} }: { path?: string; headers?: Record<string, string> } = {},
) {
  return send(`${api.base}${path}`, {
    json: body,
    headers: { ...(credential === null ? {} : bearer(credential)), ...headers },
  });
}

/** `Retry-After` as whole seconds, or NaN when it is missing or not a plain integer. */
export function retryAfterSeconds(res: { headers: Headers }): number {
  const value = res.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value) ? Number(value) : Number.NaN;
}
