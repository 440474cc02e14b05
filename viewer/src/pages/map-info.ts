import type { Room } from '../../../renderer/map-types.ts';
import { h } from '../dom.ts';
import { formatCoord } from '../format.ts';
import { floorName, roomInfo } from '../map/describe.ts';
import { doorInfo, spawnInfo } from '../map/describe-points.ts';
import type { InfoLine } from '../map/describe.ts';
import { roomFindId } from '../map/find.ts';
import { floorOf } from '../../../renderer/floors.ts';
import { describeRoom } from '../../../renderer/labels.ts';
import { roomKey } from '../../../renderer/links.ts';
import type { FloorScene } from '../../../renderer/scene.ts';
import type { Transform } from '../../../renderer/view-transform.ts';
import type { MapCanvas } from './map-canvas.ts';
import type { MapStore } from './map-store.ts';
import { roomCard } from './room-card.ts';

// The info panel over the map: what is under the pointer or crosshair (elevator, door, spawn,
// world point) and the room card, hovered or pinned. A pinned card belongs to its room, not to a
// spot on the screen: it stays through Find, Reset and floor changes until closed. It follows the
// canvas's frames (the canvas's layers answer what is where) from the time its code is loaded.

export interface InfoDeps {
  /** The panel element (made by the page, so it is there before this module loads). */
  el: HTMLElement;
  store: MapStore;
  canvas: MapCanvas;
  route(end: 'from' | 'to', id: string): void;
}

type Point = { sx: number; sy: number };

/** "Heavy Containment corner, Light Containment": a room named with its floor. */
export function describeEnd(room: Room, splitZ: number | undefined): string {
  const f = floorOf(room);
  const label = roomInfo(room, splitZ)[0]?.detail ?? room.name;
  return f ? `${label}, ${floorName(f)}` : label;
}

/** What is under a point: the elevator, door and spawn drawn there, else the world point. */
function lineItems(canvas: MapCanvas, scene: FloorScene, t: Transform, p: Point, room?: Room): InfoLine[] {
  const out: InfoLine[] = [];
  const nameOf = (x: Room | undefined): string | undefined => x && describeRoom(x, scene.checkpointSplitZ);
  const elevator = canvas.elevatorAt(p.sx, p.sy);
  if (elevator)
    out.push({
      term: 'Elevator',
      detail: `to ${describeEnd(elevator.other, scene.checkpointSplitZ)} (Enter or click)`,
    });
  // Doors and spawns name the room they belong to, which may overhang the cell under the pointer.
  const door = canvas.doorAt(p.sx, p.sy);
  if (door) out.push(doorInfo(door, nameOf(scene.extents.doorOwner.get(door))));
  const spawn = canvas.spawnAt(p.sx, p.sy);
  if (spawn) out.push(spawnInfo(spawn, nameOf(scene.extents.spawnOwner.get(spawn))));
  if (!room) {
    const w = t.toWorld(p.sx, p.sy);
    out.push({
      term: 'World',
      detail: `x ${formatCoord(w.x)}, y ${formatCoord(scene.floorY)}, z ${formatCoord(w.z)}`,
    });
  }
  return out;
}

/** Shows the lines, redrawn only when they change: a card rebuilt under the pointer drops the focus. */
function showLines(lines: HTMLElement, items: readonly InfoLine[]): void {
  const key = JSON.stringify(items);
  if (lines.dataset.key === key) return;
  const dl = h('dl', {});
  for (const l of items) dl.append(h('dt', {}, l.term), h('dd', {}, l.detail));
  lines.replaceChildren(...(items.length ? [dl] : []));
  lines.dataset.key = key;
}

/** What shows the room card in `card` (pinned or hovered room), rebuilt only when what it shows changed. */
function roomCardIn(
  card: HTMLElement,
  { store, canvas, route }: InfoDeps,
): (room: Room | undefined, world: { x: number; z: number } | undefined) => void {
  const unpin = (): void => {
    store.commit({ pinned: undefined });
    canvas.el.focus({ preventScroll: true });
  };
  return (room: Room | undefined, world: { x: number; z: number } | undefined): void => {
    const { pinned, map, findIndex } = store.model;
    // The Find index (for the card's route buttons) may arrive after the card is first shown.
    const key = JSON.stringify([
      room && roomKey(room),
      !!pinned,
      world ? [world.x, world.z] : 0,
      findIndex.length,
    ]);
    if (card.dataset.key === key) return;
    const open = !!room && card.dataset.room === roomKey(room) && !!card.querySelector('details')?.open;
    card.replaceChildren();
    // A pinned room is described on its own floor, whichever floor is shown.
    const f = room && floorOf(room);
    const scene = f && store.sceneOf(f);
    if (room && map && scene) {
      const close = pinned ? unpin : undefined;
      const routeId = roomFindId(findIndex, room);
      card.append(roomCard({ map, scene, room, routeId, world, route, close }));
    }
    if (open) card.querySelector('details')?.setAttribute('open', '');
    card.dataset.key = key;
    card.dataset.room = room ? roomKey(room) : '';
  };
}

export function createMapInfo(deps: InfoDeps): void {
  const { store, canvas, el } = deps;
  const lines = h('div', { class: 'info-lines' });
  const card = h('div', {});
  el.append(lines, card);
  const showCard = roomCardIn(card, deps);

  const point = (): Point | undefined => {
    const hover = store.model.hover;
    if (!hover) return undefined;
    if (hover.kind === 'point') return hover;
    const vp = canvas.viewport();
    return { sx: vp.width / 2, sy: vp.height / 2 };
  };

  canvas.onFrame((t) => {
    const p = point();
    const scene = store.scene();
    const { pinned, map } = store.model;
    if ((!p && !pinned) || !scene || !map || !t) {
      el.hidden = true;
      return;
    }
    const hovered = p ? canvas.roomAtPoint(p.sx, p.sy) : undefined;
    const room = pinned ?? hovered;
    const items = p ? lineItems(canvas, scene, t, p, room) : [];
    showLines(lines, items);
    // A hovered card follows the pointer's world position.
    const world = p && room && !pinned && room === hovered ? t.toWorld(p.sx, p.sy) : undefined;
    showCard(room, world && { x: world.x, z: world.z });
    el.classList.toggle('pinned', !!pinned);
    el.hidden = !items.length && !room;
    // Keep the panel away from the pointer: switch sides when the pointer is on the left.
    if (p && !pinned) el.classList.toggle('right', p.sx < canvas.viewport().width / 2);
  });
}
