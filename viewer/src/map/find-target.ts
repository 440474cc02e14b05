import type { Room, Spawn } from '../../../renderer/map-types.ts';
import type { Box } from '../../../renderer/box.ts';

// What a link's `find` names and how the view shows it: all the map page needs of Find before
// Find is used. The index and the search (find.ts) load when Find is opened or a link names
// something found.

/** A Find entry's rooms or spawn points on one floor. */
export interface FindTargets {
  rooms: Room[];
  spawns: Spawn[];
}

/** A Find entry's id as a link carries it: "room:scp-079", "zone:Entrance", "item:MicroHID". */
export const FIND_ID = /^(room|zone|item|struct):[A-Za-z0-9_-]{1,64}$/;

/** World rectangle around a floor's targets, to centre the view on them. */
export function targetBounds(t: FindTargets): Box {
  const pts = [...t.rooms, ...t.spawns];
  const xs = pts.map((p) => p.x);
  const zs = pts.map((p) => p.z);
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...zs), y1: Math.max(...zs) };
}
