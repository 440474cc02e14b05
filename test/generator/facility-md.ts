// Facts parsed from reference/facility.md so the tests check the generator against the document, not
// against the generator's own data.

import { readReference } from './reference-files.ts';

const md = readReference('facility.md');

export interface CatalogueRow {
  prefab: string;
  name: string;
  shape: string;
  min: number;
  max: number;
  weight: number;
}

/** Section 3 room tables (LCZ, HCZ, EZ), keyed by prefab. */
export function roomCatalogue(): Map<string, CatalogueRow> {
  const section = md.slice(md.indexOf('## 3. Room catalogue'), md.indexOf('### Surface / Other'));
  const rows = new Map<string, CatalogueRow>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // | prefab | RoomName | Shape | Min–max | Weight | note |
    const prefab = cells[1] ?? '';
    const range = /^(\d+)–(\d+)$/.exec(cells[4] ?? '');
    if (!/^(LCZ|HCZ|EZ)_/.test(prefab) || !range) continue;
    rows.set(prefab, {
      prefab,
      name: (cells[2] ?? '').split(' ')[0]!,
      shape: cells[3] ?? '',
      min: Number(range[1]),
      max: Number(range[2]),
      weight: Number(cells[5]),
    });
  }
  return rows;
}

/** Section 8 candidate order per zone, as full prefab names. */
export function templateOrder(): Record<'LCZ' | 'HCZ' | 'EZ', string[]> {
  const section = md.slice(md.indexOf('## 8.'), md.indexOf('## 9.'));
  const out = { LCZ: [] as string[], HCZ: [] as string[], EZ: [] as string[] };
  for (const zone of ['LCZ', 'HCZ', 'EZ'] as const) {
    const m = new RegExp(`^\\s+${zone}: ([^.]+)\\.`, 'm').exec(section.replace(/,\n\s+/g, ', '));
    if (!m) throw new Error(`no ${zone} order in facility.md section 8`);
    out[zone] = m[1]!.split(', ').map((s) => `${zone}_${s.trim()}`);
  }
  return out;
}

/** Section 2: open sides of each shape at rotation 0, as unit steps (dx, dz). */
export function baseOpenings(): Map<string, [number, number][]> {
  const step: Record<string, [number, number]> = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
  const out = new Map<string, [number, number][]>();
  for (const line of md.slice(md.indexOf('## 2.'), md.indexOf('## 3.')).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const shape = cells[1] ?? '';
    if (!['Endroom', 'Straight', 'Curve', 'TShape', 'XShape'].includes(shape)) continue;
    const open = cells[2] ?? '';
    const letters =
      open === 'all four'
        ? ['N', 'E', 'S', 'W']
        : open
            .split('(')[0]!
            .split(',')
            .map((s) => s.trim());
    out.set(
      shape,
      letters.map((l) => step[l]!),
    );
  }
  return out;
}

/** Section 3 adjacency rule: 0.1 for every template except the tesla room's 0. */
export const ADJACENCY_TEXT = md.slice(md.indexOf('adjacency multiplier of 0.1'), md.indexOf('### LCZ'));
