import type { MapData, Room } from '../../../renderer/map-types.ts';
import { h } from '../dom.ts';
import { formatCoord } from '../format.ts';
import { roomInfo, spawnName } from '../map/describe.ts';
import { floorById, floorOf } from '../../../renderer/floors.ts';
import { describeRoom, zoneLabel } from '../../../renderer/labels.ts';
import { layoutName } from '../map/layout-names.ts';
import { otherEnd, roomKey } from '../../../renderer/links.ts';
import { doorName } from '../../../renderer/names.ts';
import { spawnRoom } from '../../../renderer/room-extents.ts';
import { EXIT } from '../map/route-ends.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import { structureContents } from '../map/describe-points.ts';
import { CATEGORY_LABEL, spawnCategory } from '../../../renderer/spawn-kinds.ts';

// The room card: what a player wants to know about a room (its name and zone, what can spawn in it,
// its doors, teslas and elevators) with the developer data (names in code, rotation, coordinates)
// folded behind "Details".

export interface RoomCardInput {
  map: Pick<MapData, 'layouts'>;
  scene: FloorScene;
  room: Room;
  /** The room's `room:` id, when it can be a route's end. */
  routeId: string | undefined;
  /** World point under the pointer or crosshair, for the details. */
  world: { x: number; z: number } | undefined;
  route(end: 'from' | 'to', id: string): void;
  /** For a card that stays open: closes it. */
  close: (() => void) | undefined;
}

/** "3 × Scientist keycard", most frequent first. */
function counted(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([n, c]) => `${c} × ${n}`);
}

function section(title: string, lines: readonly string[]): HTMLElement[] {
  if (!lines.length) return [];
  return [
    h('h3', { class: 'card-heading' }, title),
    h('ul', { class: 'card-list' }, ...lines.map((l) => h('li', {}, l))),
  ];
}

function endName(room: Room, splitZ: number | undefined): string {
  const f = floorOf(room);
  const name = describeRoom(room, splitZ);
  return f ? `${name}, ${floorById(f).label}` : name;
}

export function roomCard(c: RoomCardInput): HTMLElement {
  const { scene, room } = c;
  const split = scene.checkpointSplitZ;
  const k = roomKey(room);
  const mine = (r: Room | undefined): boolean => !!r && roomKey(r) === k;

  const layout = layoutName(c.map, room.zone);
  const items: string[] = [];
  const structures: string[] = [];
  for (const s of scene.spawns) {
    if (!mine(scene.extents.spawnOwner.get(s))) continue;
    // Each item with its category, as its symbol on the map shows it; structures with what they may hold.
    if (s.kind === 'item') items.push(`${spawnName(s)} (${CATEGORY_LABEL[spawnCategory(s)].toLowerCase()})`);
    else structures.push(structureContents(s));
  }
  const ways: string[] = [];
  for (const [door, owner] of scene.extents.doorOwner)
    if (mine(owner))
      ways.push(`${door.checkpoint ? 'Checkpoint door' : 'Heavy door'}: ${doorName(door.name)}`);
  const teslas = scene.teslas.filter((t) => mine(spawnRoom([room], t))).length;
  if (teslas) ways.push(teslas === 1 ? 'Tesla gate' : `${teslas} tesla gates`);
  for (const link of scene.links) {
    if (!mine(link.a) && !mine(link.b)) continue;
    const other = otherEnd(link, room);
    ways.push(`${link.kind === 'elevator' ? 'Elevator' : 'Checkpoint'} to ${endName(other, split)}`);
  }

  const card = h(
    'section',
    { class: 'room-card', 'aria-label': `Room: ${describeRoom(room, split)}` },
    h('h2', { class: 'card-title' }, describeRoom(room, split)),
    h('p', { class: 'card-zone' }, layout ? `${zoneLabel(room.zone)} · ${layout}` : zoneLabel(room.zone)),
    ...section('Items that can spawn', counted(items)),
    ...section('Structures that can spawn', counted(structures)),
    ...(items.length || structures.length ? [] : [h('p', { class: 'card-none' }, 'Nothing spawns here.')]),
    ...section('Doors, teslas and elevators', ways),
  );
  const id = c.routeId;
  if (id) {
    const button = (end: 'from' | 'to', text: string): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'card-route', 'data-route': end }, text);
      b.addEventListener('click', () => c.route(end, id));
      return b;
    };
    const exit = h('button', { type: 'button', class: 'card-route', 'data-route': EXIT }, 'Nearest exit');
    exit.addEventListener('click', () => {
      c.route('from', id);
      c.route('to', EXIT);
    });
    card.append(
      h(
        'p',
        { class: 'card-actions' },
        button('from', 'Route from here'),
        button('to', 'Route to here'),
        exit,
      ),
    );
  }
  if (c.close) {
    const close = h('button', { type: 'button', class: 'card-close', 'aria-label': 'Close room card' }, '×');
    close.addEventListener('click', c.close);
    card.prepend(close);
  }
  const details = roomInfo(room, split).slice(1);
  if (c.world)
    details.push({
      term: 'World',
      detail: `x ${formatCoord(c.world.x)}, y ${formatCoord(scene.floorY)}, z ${formatCoord(c.world.z)}`,
    });
  const dl = h('dl', {});
  for (const l of details) dl.append(h('dt', {}, l.term), h('dd', {}, l.detail));
  card.append(h('details', { class: 'card-details' }, h('summary', {}, 'Details'), dl));
  return card;
}
