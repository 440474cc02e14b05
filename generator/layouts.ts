// The 20 layout templates ("atlases"), parsed once at module load from the verbatim copy of
// reference/layouts.tsv, with everything seed-independent about them precomputed.

import { readFileSync } from 'node:fs';
import type { RoomShape } from './map-schema.ts';

/** Opening bits: N = +z, E = +x, S = -z, W = -x. */
export const N = 1;
export const E = 2;
export const S = 4;
export const W = 8;
/** Grid steps of the directions in bit order N, E, S, W. */
export const DIRS: readonly { bit: number; dx: number; dz: number; back: number }[] = [
  { bit: N, dx: 0, dz: 1, back: S },
  { bit: E, dx: 1, dz: 0, back: W },
  { bit: S, dx: 0, dz: -1, back: N },
  { bit: W, dx: -1, dz: 0, back: E },
];

export type AtlasZone = 'L' | 'H' | 'E';

export interface LayoutCell {
  readonly cx: number;
  readonly cz: number;
  readonly shape: RoomShape;
  /** Allowed template rotations in the game's order; one is drawn with Next(length). */
  readonly rotations: readonly number[];
  /** RoomName the pinned cell requires (Class-D spawn, HCZ/EZ checkpoint part), else null. */
  readonly specific: string | null;
  /** Open sides in the template frame (all allowed rotations give the same set). */
  readonly openings: number;
  /** Indices (into the layout's cells) of the 4 grid neighbours that exist, for adjacency weights. */
  readonly around: readonly number[];
  /** Indices of cells joined by a door: both open toward each other. */
  readonly doors: readonly number[];
}

export interface Layout {
  readonly zone: AtlasZone;
  readonly index: number;
  readonly cells: readonly LayoutCell[];
  /** Indices of the two HCZ/EZ checkpoint-part cells (HCZ and EZ layouts only). */
  readonly checkpoints: readonly number[];
}

const SHAPES: Record<string, RoomShape> = {
  E: 'Endroom',
  S: 'Straight',
  C: 'Curve',
  T: 'TShape',
  X: 'XShape',
};

// Openings at rotation 0 (facility.md section 2).
const BASE_OPENINGS: Record<RoomShape, number> = {
  Endroom: W,
  Straight: W | E,
  Curve: S | E,
  TShape: W | S | N,
  XShape: N | E | S | W,
  Undefined: 0,
};

// Special cell codes of the TSV are RoomName enum ids.
const SPECIFIC: Record<string, string> = { '1': 'LczClassDSpawn', '13': 'HczCheckpointToEntranceZone' };

/** Turns an opening set clockwise by whole quarter turns (W -> N -> E -> S). */
export function rotateOpenings(mask: number, degrees: number): number {
  const steps = (((degrees / 90) % 4) + 4) % 4;
  let out = mask;
  for (let i = 0; i < steps; i++) out = ((out << 1) | (out >> 3)) & 15;
  return out;
}

function openingsOf(shape: RoomShape, rotation: number, specific: string | null): number {
  // The Class-D spawn prefab opens east at rotation 0, unlike other endrooms.
  const base = specific === 'LczClassDSpawn' ? E : BASE_OPENINGS[shape];
  return rotateOpenings(base, rotation);
}

interface RawCell {
  cx: number;
  cz: number;
  shape: RoomShape;
  rotations: number[];
  specific: string | null;
}

export function parseLayouts(tsv: string): Record<AtlasZone, Layout[]> {
  const raw = new Map<string, RawCell[]>();
  for (const line of tsv.split('\n')) {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) continue;
    const [zone, index, cx, cz, shape, rotations, special] = text.split(/\s+/);
    const key = `${zone} ${index}`;
    const shapeName = SHAPES[shape ?? ''];
    if (!shapeName || !rotations || !special || !cx || !cz) throw new Error(`bad layout row: ${text}`);
    const cells = raw.get(key) ?? [];
    cells.push({
      cx: Number(cx),
      cz: Number(cz),
      shape: shapeName,
      rotations: rotations.split('-').map(Number),
      specific: special === '-' ? null : (SPECIFIC[special] ?? null),
    });
    raw.set(key, cells);
  }
  const out: Record<AtlasZone, Layout[]> = { L: [], H: [], E: [] };
  for (const [key, cells] of raw) {
    const [zone, index] = key.split(' ') as [AtlasZone, string];
    out[zone][Number(index)] = buildLayout(zone, Number(index), cells);
  }
  for (const zone of ['L', 'H', 'E'] as const) {
    if (out[zone].some((l) => l === undefined)) throw new Error(`layout indices of ${zone} have a gap`);
  }
  return out;
}

function buildLayout(zone: AtlasZone, index: number, raw: RawCell[]): Layout {
  const at = new Map<string, number>();
  raw.forEach((c, i) => at.set(`${c.cx},${c.cz}`, i));
  const openings = raw.map((c) => openingsOf(c.shape, c.rotations[0] ?? 0, c.specific));
  const cells = raw.map((c, i): LayoutCell => {
    const around: number[] = [];
    const doors: number[] = [];
    for (const d of DIRS) {
      const j = at.get(`${c.cx + d.dx},${c.cz + d.dz}`);
      if (j === undefined) continue;
      around.push(j);
      if (openings[i]! & d.bit && openings[j]! & d.back) doors.push(j);
    }
    return { ...c, openings: openings[i]!, around, doors };
  });
  const checkpoints = cells.flatMap((c, i) => (c.specific === 'HczCheckpointToEntranceZone' ? [i] : []));
  return { zone, index, cells, checkpoints };
}

export const LAYOUTS = parseLayouts(readFileSync(new URL('./data/layouts.tsv', import.meta.url), 'utf8'));
