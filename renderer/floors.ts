import type { Zone } from './map-types.ts';

export type FloorId = 'lcz' | 'hcz' | 'surface';

export interface Floor {
  id: FloorId;
  label: string;
  /** For narrow screens. */
  short: string;
  /** World y of room centres on this floor. */
  y: number;
  zones: readonly Zone[];
}

// Heavy Containment and Entrance share the y = -100 floor, so they are one view.
export const FLOORS: readonly Floor[] = [
  { id: 'lcz', label: 'Light Containment', short: 'LCZ', y: 100, zones: ['LightContainment'] },
  {
    id: 'hcz',
    label: 'Heavy Containment + Entrance',
    short: 'HCZ + EZ',
    y: -100,
    zones: ['HeavyContainment', 'Entrance'],
  },
  { id: 'surface', label: 'Surface', short: 'Surface', y: 300, zones: ['Surface'] },
];

export const DEFAULT_FLOOR: FloorId = 'lcz';

export function isFloorId(v: unknown): v is FloorId {
  return v === 'lcz' || v === 'hcz' || v === 'surface';
}

export function floorById(id: FloorId): Floor {
  return FLOORS.find((f) => f.id === id) ?? (FLOORS[0] as Floor);
}

export function floorOfZone(zone: Zone): FloorId | undefined {
  return FLOORS.find((f) => f.zones.includes(zone))?.id;
}

/**
 * Floor of a point by height. Rooms span several levels (the warhead silo near y = -200, SCP-049's
 * upper chamber near y = -10, SCP-173's upper level near y = 111), so the bands are wide and meet
 * half-way between floors.
 */
export function floorOfHeight(y: number): FloorId | undefined {
  if (y >= 200) return 'surface';
  if (y >= 0) return 'lcz';
  if (y > -250) return 'hcz';
  return undefined; // Pocket Dimension, not drawn
}

/** The floor a room, door or spawn is drawn on: its zone's floor, else by its height. */
export function floorOf(x: { zone?: Zone; y: number }): FloorId | undefined {
  return (x.zone && floorOfZone(x.zone)) || floorOfHeight(x.y);
}
