// A seed as the seed box or a link gives it, in a module of its own so the home page can read one
// without the map's code.

export const MAX_SEED = 2147483647;

export type SeedInput = { kind: 'none' } | { kind: 'valid'; seed: number } | { kind: 'invalid'; raw: string };

export function parseSeed(raw: string | null | undefined): SeedInput {
  if (raw === null || raw === undefined) return { kind: 'none' };
  const text = raw.trim();
  if (text === '') return { kind: 'none' };
  if (!/^\d{1,10}$/.test(text)) return { kind: 'invalid', raw: text };
  const seed = Number(text);
  return seed >= 1 && seed <= MAX_SEED ? { kind: 'valid', seed } : { kind: 'invalid', raw: text };
}
