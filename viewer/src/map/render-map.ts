import type { Door, Room, Spawn } from '../api/types.ts';
import { floorOfHeight, floorOfZone } from './floors.ts';
import type { FloorId } from './floors.ts';
import { roomLabel } from './labels.ts';
import { otherEnd, roomKey } from './links.ts';
import * as P from './palette.ts';
import { LEVEL_TOLERANCE } from './room-extents.ts';
import { drawRoute } from './route-draw.ts';
import { roomGeometry } from './room-geometry.ts';
import type { Rect, RoomGeometry } from './room-geometry.ts';
import { extentOf } from './scene.ts';
import type { FloorScene } from './scene.ts';
import { itemMatches, structureMatches, ALL } from './spawn-filter.ts';
import { placeLabels, spotsAround } from './label-placement.ts';
import type { Box, LabelRequest, Spot } from './label-placement.ts';
import { doorSize, drawDoor, drawElevator, drawItem, drawLink, drawStructure, drawTesla } from './symbols.ts';
import type { Transform, Viewport } from './view-transform.ts';

export interface Layers {
  doors: boolean;
  teslas: boolean;
  structures: boolean;
  items: boolean;
}

export interface RenderOptions {
  layers: Layers;
  itemFilter: string;
  structureFilter: string;
  hover?: Room | undefined;
  /** What the player found with the search: outlined rooms, spawns shown as matches. */
  selection?: { rooms: readonly Room[]; spawns: readonly Spawn[] } | undefined;
  /** The route's runs of rooms on this floor. */
  route?: readonly (readonly Room[])[] | undefined;
  /** Screen boxes over the map (the zoom buttons) that no label may slide under. */
  avoid?: readonly Box[];
}

/** Elevator icon on screen; clicking it moves to the room at the other end. */
export interface ElevatorTarget {
  sx: number;
  sy: number;
  size: number;
  room: Room;
  other: Room;
}

/** A drawn door, kept for hover lookups. */
export interface DoorMark {
  sx: number;
  sy: number;
  door: Door;
}

/** A drawn spawn point, kept for hover lookups. */
export interface SpawnMark {
  sx: number;
  sy: number;
  spawn: Spawn;
}

export interface RenderResult {
  rooms: number;
  spawns: number;
  doors: number;
  teslas: number;
  links: number;
  labels: LabelMark[];
  symbols: SymbolMark[];
  /** Found rooms and spawns drawn. */
  selected: number;
  elevators: ElevatorTarget[];
  spawnMarks: SpawnMark[];
  doorMarks: DoorMark[];
}

type Ctx = CanvasRenderingContext2D;

/** Below this cell size (a phone showing a whole floor) room names would cover the map. */
const MIN_LABEL_CELL_PX = 16;

function fillRect(ctx: Ctx, t: Transform, r: Rect, grow = 0): void {
  const a = t.toScreen(r.x0, r.z1);
  const b = t.toScreen(r.x1, r.z0);
  ctx.fillRect(a.sx - grow, a.sy - grow, b.sx - a.sx + 2 * grow, b.sy - a.sy + 2 * grow);
}

function floorOfRoom(room: Room): FloorId | undefined {
  return floorOfZone(room.zone) ?? floorOfHeight(room.y);
}

function elevatorCaption(other: Room): string {
  switch (floorOfRoom(other)) {
    case 'lcz':
      return 'to LCZ';
    case 'hcz':
      return other.zone === 'Entrance' ? (roomLabel(other)?.short ?? 'to EZ') : 'to HCZ';
    case 'surface':
      return 'to Surface';
    default:
      return 'elevator';
  }
}

/** A room's drawn geometry, its body grown to hold everything placed in it (room-extents.ts). */
function geometryIn(scene: FloorScene, room: Room): RoomGeometry & { levels: Rect | undefined } {
  const g = roomGeometry(room);
  const e = extentOf(scene, room);
  const levels = e?.all && e.all !== e.main && room.shape !== 'Undefined' ? e.all : undefined;
  return { ...g, body: e?.main ?? g.body, levels };
}

const overhangs = (g: RoomGeometry): boolean =>
  !!g.body &&
  (g.body.x0 < g.cell.x0 || g.body.x1 > g.cell.x1 || g.body.z0 < g.cell.z0 || g.body.z1 > g.cell.z1);

const union = (a: Rect, b: Rect | undefined): Rect =>
  b
    ? {
        x0: Math.min(a.x0, b.x0),
        z0: Math.min(a.z0, b.z0),
        x1: Math.max(a.x1, b.x1),
        z1: Math.max(a.z1, b.z1),
      }
    : a;

function strokeRect(ctx: Ctx, t: Transform, r: Rect, inset = 0): void {
  const a = t.toScreen(r.x0, r.z1);
  const b = t.toScreen(r.x1, r.z0);
  // Corners in either order: a turned floor swaps which one is left.
  const x = Math.min(a.sx, b.sx);
  const y = Math.min(a.sy, b.sy);
  ctx.strokeRect(x + inset, y + inset, Math.abs(b.sx - a.sx) - 2 * inset, Math.abs(b.sy - a.sy) - 2 * inset);
}

function drawRooms(ctx: Ctx, scene: FloorScene, t: Transform): void {
  const geoms = scene.rooms.map((r) => ({ room: r, g: geometryIn(scene, r) }));
  // Open areas: a faint dashed field, not a solid room, as their real outline is unknown.
  for (const { room, g } of geoms) {
    if (room.shape !== 'Undefined' || !g.body) continue;
    const a = t.toScreen(g.body.x0, g.body.z1);
    const b = t.toScreen(g.body.x1, g.body.z0);
    ctx.save();
    ctx.fillStyle = P.ZONE_CELL[room.zone];
    ctx.fillRect(a.sx, a.sy, b.sx - a.sx, b.sy - a.sy);
    ctx.strokeStyle = P.ZONE_FILL[room.zone];
    ctx.lineWidth = 2;
    ctx.setLineDash([8, 6]);
    ctx.strokeRect(a.sx, a.sy, b.sx - a.sx, b.sy - a.sy);
    ctx.restore();
  }
  const solid = geoms.filter(({ room }) => room.shape !== 'Undefined');
  // Cell backdrops show the 15 m grid the facility is built on.
  for (const { room, g } of solid) {
    ctx.fillStyle = P.ZONE_CELL[room.zone];
    fillRect(ctx, t, g.cell, -0.5);
  }
  const grow = Math.max(1, Math.min(2.5, t.scale * 0.25));
  // Rooms larger than their cell go underneath, so the neighbours they overhang stay readable.
  const big = solid.filter(({ g }) => overhangs(g));
  for (const { room, g } of big) {
    if (!g.body) continue;
    ctx.fillStyle = P.OUTLINE;
    fillRect(ctx, t, g.body, grow);
    ctx.fillStyle = P.ZONE_BODY[room.zone];
    fillRect(ctx, t, g.body);
  }
  // Parts on another level (warhead silo, SCP-049's upper chamber): a dashed outline.
  ctx.save();
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 4]);
  for (const { room, g } of solid) {
    if (!g.levels) continue;
    ctx.strokeStyle = P.ZONE_FILL[room.zone];
    strokeRect(ctx, t, g.levels);
  }
  ctx.restore();
  // Outline pass then fill pass, so touching pieces merge into one clean shape.
  ctx.fillStyle = P.OUTLINE;
  for (const { g } of solid) {
    for (const c of g.corridors) fillRect(ctx, t, c, grow);
    if (g.body && !overhangs(g)) fillRect(ctx, t, g.body, grow);
  }
  for (const { room, g } of solid) {
    ctx.fillStyle = P.ZONE_FILL[room.zone];
    for (const c of g.corridors) fillRect(ctx, t, c);
  }
  for (const { room, g } of solid) {
    if (!g.body || overhangs(g)) continue;
    ctx.fillStyle = P.ZONE_BODY[room.zone];
    fillRect(ctx, t, g.body);
  }
}

function drawOutline(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
  room: Room,
  colour: string,
  width: number,
  dash: number[],
): void {
  const g = geometryIn(scene, room);
  const r = g.body && room.shape === 'Undefined' ? g.body : union(g.cell, g.body);
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  strokeRect(ctx, t, r, width / 2);
  ctx.restore();
}

/** Rooms whose map label would repeat its neighbour's: the Entrance half of a zone checkpoint. */
function mapLabelSkipped(room: Room): boolean {
  return room.name === 'HczCheckpointToEntranceZone' && room.zone === 'Entrance';
}

// Which labels win a crowded spot: the rooms players navigate by first, fillers with a name last.
function labelRank(room: Room): number {
  if (/^(Lcz|Hcz)\d|^(Lcz|Hcz)Checkpoint|^EzGate/.test(room.name)) return 0;
  if (room.name === 'Unnamed' || room.name === 'HczTesla' || room.name === 'LczAirlock') return 2;
  return 1;
}

const boxAround = (sx: number, sy: number, halfW: number, halfH = halfW): Box => ({
  x0: sx - halfW,
  y0: sy - halfH,
  x1: sx + halfW,
  y1: sy + halfH,
});

/** Boxes covering a straight stroke, a few pixels long each, so a diagonal blocks only its path. */
function strokeBoxes(ax: number, ay: number, bx: number, by: number, width: number): Box[] {
  const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / 6));
  const out: Box[] = [];
  for (let i = 0; i <= n; i++) {
    out.push(boxAround(ax + ((bx - ax) * i) / n, ay + ((by - ay) * i) / n, width / 2 + 3));
  }
  return out;
}

interface Caption {
  text: string;
  sx: number;
  sy: number;
  size: number;
  open: boolean;
}

/** Elevator icons; their captions ("to LCZ") are placed with the room labels. */
function drawElevators(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
): { targets: ElevatorTarget[]; captions: Caption[] } {
  const targets: ElevatorTarget[] = [];
  const captions: Caption[] = [];
  const keys = new Set(scene.rooms.map(roomKey));
  const size = Math.round(Math.min(22, Math.max(12, t.scale * 3)));
  const perRoom = new Map<string, number>();
  for (const link of scene.links) {
    if (link.kind !== 'elevator') continue;
    for (const end of [link.a, link.b]) {
      if (!keys.has(roomKey(end))) continue;
      const other = otherEnd(link, end);
      const k = roomKey(end);
      const nth = perRoom.get(k) ?? 0;
      perRoom.set(k, nth + 1);
      // Top-right corner of the cell, keeping the centre free for the label; open areas stack
      // their several elevators side by side.
      const open = end.shape === 'Undefined';
      const off = open ? { x: -8 + nth * 16, z: -11 } : { x: 4.5, z: 4.5 };
      const { sx, sy } = t.toScreen(end.x + off.x, end.z + off.z);
      drawElevator(ctx, sx, sy, size);
      if (t.scale * 15 >= 40 || open) captions.push({ text: elevatorCaption(other), sx, sy, size, open });
      targets.push({ sx, sy, size, room: end, other });
    }
  }
  return { targets, captions };
}

/** A label drawn on the map; `room` is what hovering it describes. */
export interface LabelMark {
  text: string;
  box: Box;
  room: Room | undefined;
}

/** A drawn symbol's screen box: what labels keep clear of. */
export interface SymbolMark {
  kind: 'door' | 'tesla' | 'elevator' | 'spawn' | 'link';
  box: Box;
}

function drawLabels(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
  vp: Viewport,
  captions: readonly Caption[],
  symbols: readonly SymbolMark[],
  avoid: readonly Box[],
): LabelMark[] {
  const cellPx = 15 * t.scale;
  const named = cellPx >= MIN_LABEL_CELL_PX;
  if (!named && !scene.openArea) return [];
  const size = Math.round(Math.min(15, Math.max(10, cellPx * 0.2)));
  const font = `600 ${size}px system-ui, sans-serif`;
  ctx.save();
  ctx.font = font;
  const widths = new Map<string, number>();
  const measure = (text: string): number => {
    let w = widths.get(text);
    if (w === undefined) widths.set(text, (w = ctx.measureText(text).width));
    return w;
  };

  const requests: (LabelRequest & { room?: Room })[] = [];
  const a = scene.openArea;
  if (a) {
    const { sx, sy } = t.toScreen((a.minX + a.maxX) / 2, a.minZ);
    requests.push({
      texts: ['Open area: its layout is not part of the map data', 'Open area (layout unknown)'],
      x: sx,
      y: sy - 4,
      spots: [{ dx: 0, dy: 0, ax: 0.5, ay: 1 }],
    });
  }
  if (named) {
    const rooms = scene.rooms
      .map((room, i) => ({ room, i, label: roomLabel(room, scene.checkpointSplitZ) }))
      .filter((r) => r.label && !mapLabelSkipped(r.room))
      .sort((p, q) => labelRank(p.room) - labelRank(q.room) || p.i - q.i);
    // Within the room's cell first, then out to its edges.
    const spots = spotsAround(cellPx * 0.6, cellPx * 0.6, 3);
    for (const { room, label } of rooms) {
      if (!label) continue;
      const { sx, sy } = t.toScreen(room.x, room.z);
      requests.push({ texts: [label.full, label.short], x: sx, y: sy, spots, maxWidth: cellPx * 1.5, room });
    }
  }
  for (const c of captions) {
    const gap = c.size / 2 + 3;
    const spots: Spot[] = c.open
      ? [{ dx: 0, dy: gap, ax: 0.5, ay: 0 }]
      : [
          { dx: gap, dy: 0, ax: 0, ay: 0.5 },
          { dx: -gap, dy: 0, ax: 1, ay: 0.5 },
          { dx: 0, dy: gap, ax: 0.5, ay: 0 },
          { dx: 0, dy: -gap, ax: 0.5, ay: 1 },
        ];
    requests.push({ texts: [c.text], x: c.sx, y: c.sy, spots });
  }

  const screen = { x0: 0, y0: 0, x1: vp.width, y1: vp.height };
  const placed = placeLabels(requests, [...symbols.map((s) => s.box), ...avoid], screen, measure, size);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = P.LABEL_HALO;
  ctx.fillStyle = P.LABEL;
  const marks: LabelMark[] = [];
  for (const p of placed) {
    ctx.strokeText(p.text, p.x, p.y);
    ctx.fillText(p.text, p.x, p.y);
    marks.push({ text: p.text, box: p.box, room: requests[p.index]?.room });
  }
  ctx.restore();
  return marks;
}

/** Screen box of a door panel of length `len` turned by rotY degrees, outline included. */
function doorBox(sx: number, sy: number, rotY: number, len: number): Box {
  const { long, thick } = doorSize(len);
  const r = (rotY * Math.PI) / 180;
  const c = Math.abs(Math.cos(r));
  const s = Math.abs(Math.sin(r));
  return boxAround(sx, sy, (long * c + thick * s) / 2, (long * s + thick * c) / 2);
}

/** Draw one floor. The canvas context must already be scaled to CSS pixels. */
export function renderMap(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
  vp: Viewport,
  opts: RenderOptions,
): RenderResult {
  ctx.fillStyle = P.BACKGROUND;
  ctx.fillRect(0, 0, vp.width, vp.height);
  drawRooms(ctx, scene, t);
  const symbols: SymbolMark[] = [];

  let links = 0;
  const keys = new Set(scene.rooms.map(roomKey));
  for (const link of scene.links) {
    if (link.kind !== 'checkpoint' || !keys.has(roomKey(link.a)) || !keys.has(roomKey(link.b))) continue;
    const a = t.toScreen(link.a.x, link.a.z);
    const b = t.toScreen(link.b.x, link.b.z);
    const width = Math.max(2, t.scale * 0.6);
    drawLink(ctx, a.sx, a.sy, b.sx, b.sy, width);
    for (const box of strokeBoxes(a.sx, a.sy, b.sx, b.sy, width)) symbols.push({ kind: 'link', box });
    links++;
  }

  if (opts.route) drawRoute(ctx, t, opts.route);
  if (opts.hover) drawOutline(ctx, scene, t, opts.hover, P.HOVER, 2, [5, 3]);
  for (const room of opts.selection?.rooms ?? []) drawOutline(ctx, scene, t, room, P.MATCH, 3, []);

  let teslas = 0;
  if (opts.layers.teslas) {
    const r = Math.max(6, Math.min(14, t.scale * 2));
    for (const tesla of scene.teslas) {
      const { sx, sy } = t.toScreen(tesla.x, tesla.z);
      drawTesla(ctx, sx, sy, r);
      symbols.push({ kind: 'tesla', box: boxAround(sx, sy, r + 1) });
      teslas++;
    }
  }

  const doorMarks: DoorMark[] = [];
  if (opts.layers.doors) {
    const len = Math.max(7, Math.min(28, t.scale * 4));
    for (const door of scene.doors) {
      const { sx, sy } = t.toScreen(door.x, door.z);
      // On a turned floor the door turns with it.
      drawDoor(ctx, sx, sy, door.rotY + t.turn, len, door.checkpoint);
      symbols.push({ kind: 'door', box: doorBox(sx, sy, door.rotY + t.turn, len) });
      doorMarks.push({ sx, sy, door });
    }
  }
  const doors = doorMarks.length;

  const spawnMarks: SpawnMark[] = [];
  const filtering = opts.itemFilter !== ALL || opts.structureFilter !== ALL;
  const markSize = Math.max(4, Math.min(9, t.scale * 0.9));
  // Matches and the found spawns are drawn last, over the labels: they are what the reader looks for.
  const onTop: SpawnMark[] = [];
  const found = new Set(opts.selection?.spawns ?? []);
  for (const spawn of scene.spawns) {
    const isFound = found.has(spawn);
    const show =
      isFound ||
      (spawn.kind === 'structure'
        ? opts.layers.structures && structureMatches(spawn, opts.structureFilter)
        : opts.layers.items && itemMatches(spawn, opts.itemFilter));
    if (!show) continue;
    const { sx, sy } = t.toScreen(spawn.x, spawn.z);
    const mark = { sx, sy, spawn };
    spawnMarks.push(mark);
    const isMatch =
      isFound ||
      (filtering &&
        ((spawn.kind === 'item' && opts.itemFilter !== ALL) ||
          (spawn.kind === 'structure' && opts.structureFilter !== ALL)));
    const size = isMatch ? markSize * 1.5 : markSize;
    // Items are dots of radius size/2; a match adds its halo ring (drawItem).
    const half = spawn.kind === 'item' ? (isMatch ? size * 1.2 + 1 : size / 2 + 1) : size / 2 + 1;
    symbols.push({ kind: 'spawn', box: boxAround(sx, sy, half) });
    if (isMatch) onTop.push(mark);
    else drawSpawn(ctx, mark, scene.floorY, size, false);
  }
  const { targets: elevators, captions } = drawElevators(ctx, scene, t);
  for (const e of elevators) symbols.push({ kind: 'elevator', box: boxAround(e.sx, e.sy, e.size / 2) });
  const labels = drawLabels(ctx, scene, t, vp, captions, symbols, opts.avoid ?? []);
  for (const m of onTop) drawSpawn(ctx, m, scene.floorY, markSize * 1.5, true);
  return {
    rooms: scene.rooms.length,
    spawns: spawnMarks.length,
    doors,
    teslas,
    links,
    labels,
    symbols,
    selected: (opts.selection?.rooms.length ?? 0) + onTop.filter((m) => found.has(m.spawn)).length,
    elevators,
    spawnMarks,
    doorMarks,
  };
}

function drawSpawn(ctx: Ctx, m: SpawnMark, floorY: number, size: number, match: boolean): void {
  const offLevel = Math.abs(m.spawn.y - floorY) > LEVEL_TOLERANCE;
  if (m.spawn.kind === 'structure') drawStructure(ctx, m.sx, m.sy, size, offLevel, match);
  else drawItem(ctx, m.sx, m.sy, size / 2, offLevel, match);
}
