import type { Door, Spawn } from '../../../renderer/map-types.ts';
import { spawnName } from './describe.ts';
import { doorName, structureName } from '../../../renderer/names.ts';
import { structureTypes } from '../../../renderer/spawn-filter.ts';
import { CATEGORY_LABEL, spawnCategory } from '../../../renderer/spawn-kinds.ts';
import type { InfoLine } from './describe.ts';

// The info lines of a door or spawn under the pointer, and what a structure may hold (loaded with
// the info panel, not on a first visit).

// What each structure type may hold, from the reference facts; absent: the facts do not say.
const HOLDS: Readonly<Record<string, string>> = {
  LargeGunLocker: 'weapons: a Type 21 weapon locker or an MTF-E11-SR rack',
  SmallWallCabinet: 'a medkit or adrenaline, likely',
  ScpPedestal:
    'one SCP item: SCP-500, SCP-207, Anti-SCP-207, SCP-268, SCP-018, SCP-1576, SCP-244, SCP-2176, SCP-1853, SCP-1344 or SCP-1509',
};

/** A structure type with what it may hold: "Wall cabinet (may hold a medkit or adrenaline, likely)". */
export function structureWithContents(type: string): string {
  const holds = HOLDS[type];
  return `${structureName(type)} (${holds ? `may hold ${holds}` : 'what it may hold: unknown'})`;
}

/** Every type a structure spawn point accepts, each with what it may hold. */
export const structureContents = (s: Spawn): string =>
  structureTypes(s).map(structureWithContents).join(' or ');

const inRoom = (room: string | undefined): string => (room ? `, in ${room}` : '');

/** A spawn point and the room it belongs to. */
export function spawnInfo(spawn: Spawn, room: string | undefined): InfoLine {
  if (spawn.kind === 'structure')
    return { term: 'Structure spawn', detail: `${structureContents(spawn)}${inRoom(room)}` };
  const category = CATEGORY_LABEL[spawnCategory(spawn)].toLowerCase();
  return { term: `Item spawn (${category})`, detail: `${spawnName(spawn)}${inRoom(room)}` };
}

/** A heavy door and the room it belongs to. */
export function doorInfo(door: Door, room: string | undefined): InfoLine {
  return {
    term: door.checkpoint ? 'Checkpoint door' : 'Heavy door',
    detail: `${doorName(door.name)}${inRoom(room)}`,
  };
}
