// The public map contract (spec api-v1 section 2.4), shared by the generator and the API.

import { z } from 'zod';
import { SEED_MAX, SEED_MIN } from '../store/constants.ts';

export const ZoneSchema = z.enum(['LightContainment', 'HeavyContainment', 'Entrance', 'Surface', 'Other']);
export type Zone = z.infer<typeof ZoneSchema>;

export const RoomShapeSchema = z.enum(['Straight', 'Curve', 'TShape', 'XShape', 'Endroom', 'Undefined']);
export type RoomShape = z.infer<typeof RoomShapeSchema>;

const coord = z.number().finite();

/** A connected room's centre; y and zone only when the neighbour is on another floor. */
export const ConnSchema = z.strictObject({
  x: coord,
  z: coord,
  y: coord.optional(),
  zone: ZoneSchema.optional(),
});
export type Conn = z.infer<typeof ConnSchema>;

export const RoomSchema = z.strictObject({
  name: z.string().min(1),
  zone: ZoneSchema,
  shape: RoomShapeSchema,
  x: coord,
  y: coord,
  z: coord,
  rotY: z.literal([0, 90, 180, 270]),
  variant: z.string().min(1).nullable(),
  conn: z.array(ConnSchema),
});
export type Room = z.infer<typeof RoomSchema>;

export const SpawnSchema = z.strictObject({
  kind: z.enum(['structure', 'item']),
  cat: z.string().min(1),
  x: coord,
  y: coord,
  z: coord,
  rx: coord,
  rz: coord,
});
export type Spawn = z.infer<typeof SpawnSchema>;

export const DoorSchema = z.strictObject({
  name: z.string().min(1),
  zone: ZoneSchema,
  x: coord,
  y: coord,
  z: coord,
  rotY: coord,
  checkpoint: z.boolean(),
});
export type Door = z.infer<typeof DoorSchema>;

export const TeslaSchema = z.strictObject({
  x: coord,
  y: coord,
  z: coord,
  rx: coord,
  rz: coord,
});
export type Tesla = z.infer<typeof TeslaSchema>;

/**
 * Which of the game's fixed layout templates each zone was built from, numbered from 1 (the game's
 * atlas index + 1): LCZ 1-5, HCZ 1-10, EZ 1-5. Not in the spec's 2.4; added so players can tell
 * layouts apart. Absent from maps made before it existed.
 */
export const LayoutsSchema = z.strictObject({
  LightContainment: z.int().min(1).max(5),
  HeavyContainment: z.int().min(1).max(10),
  Entrance: z.int().min(1).max(5),
});
export type Layouts = z.infer<typeof LayoutsSchema>;

export const MapSchema = z.strictObject({
  seed: z.number().int().min(SEED_MIN).max(SEED_MAX),
  rooms: z.array(RoomSchema),
  // Always empty in the public response.
  markers: z.array(z.unknown()).length(0),
  spawns: z.array(SpawnSchema),
  doors: z.array(DoorSchema),
  teslas: z.array(TeslaSchema),
  layouts: LayoutsSchema.optional(),
  // Shape not published by the spec; present only when available.
  transitions: z.record(z.string(), z.unknown()).optional(),
  transitionCoverage: z.record(z.string(), z.unknown()).optional(),
});
export type FacilityMap = z.infer<typeof MapSchema>;
