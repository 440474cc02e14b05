// Display formatting shared by the pages.

const numberFormat = new Intl.NumberFormat('en');

/** Integer with thousands separators; a dash for anything that is not a number. */
export function formatInt(n: unknown): string {
  return typeof n === 'number' && Number.isFinite(n) ? numberFormat.format(n) : '–';
}

/** "3d 4h", "2h 5m", "4m 10s", "12s". */
export function formatDuration(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${sec}s`;
  return `${sec}s`;
}

/** ISO timestamp as "2025-01-31 14:05:09 UTC" (UTC keeps it independent of the reader's zone). */
export function formatUtc(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return (
    new Date(t)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$|Z$/, '') + ' UTC'
  );
}

/** One decimal, for world coordinates. */
export function formatCoord(n: number): string {
  return (Math.round(n * 10) / 10).toFixed(1);
}
