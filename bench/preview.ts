import { generateMap } from '../generator/facility.ts';
import { renderPreview } from '../api/maps/preview-image.ts';
import { parseMap } from '../renderer/parse-map.ts';
import { percentile, round } from './lib.ts';

const SEEDS = 40;
/** Issue 30: each link-preview picture takes at most this long to make. */
const GOAL_MS = 100;

/**
 * 6. The link-preview picture (og:image): the viewer's renderMap on @napi-rs/canvas plus the PNG
 * encoding, for generated maps of distinct seeds, one after another, wall and CPU time each.
 */
export async function benchPreview() {
  const maps = Array.from({ length: SEEDS + 3 }, (_, i) => parseMap(generateMap(7_000_001 + i)));
  // The first renders load fonts and warm the JIT: not what a request sees later.
  for (const map of maps.splice(0, 3)) await renderPreview(map);
  const wall: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (const map of maps) {
    const used = process.cpuUsage();
    const t = performance.now();
    bytes += (await renderPreview(map)).length;
    wall.push(performance.now() - t);
    const c = process.cpuUsage(used);
    cpu.push((c.user + c.system) / 1000);
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return {
      median: round(percentile(s, 50), 1),
      p95: round(percentile(s, 95), 1),
      max: round(s.at(-1)!, 1),
    };
  };
  const result = {
    pictures: SEEDS,
    wallMs: stats(wall),
    cpuMs: stats(cpu),
    meanBytes: Math.round(bytes / SEEDS),
  };
  console.log(`\n6. Link-preview picture: 1200×630 PNG of ${SEEDS} generated maps, one after another`);
  console.table({ 'wall ms (goal median ≤ 100)': result.wallMs, 'CPU ms, all threads': result.cpuMs });
  console.log(
    `mean size ${result.meanBytes} bytes; goal ${result.wallMs.median <= GOAL_MS ? 'met' : 'MISSED'}`,
  );
  return result;
}
