import type { Door, Room, Spawn } from '../api/types.ts';
import { floorOfHeight, floorOfZone } from './floors.ts';
import type { FloorId } from './floors.ts';
import { roomLabel } from './labels.ts';
import { otherEnd, roomKey } from './links.ts';
import * as P from './palette.ts';
import { roomGeometry } from './room-geometry.ts';
import type { Rect, RoomGeometry } from './room-geometry.ts';
import type { FloorScene } from './scene.ts';
import { itemMatches, structureMatches, ALL } from './spawn-filter.ts';
import { drawDoor, drawElevator, drawItem, drawLink, drawStructure, drawTesla } from './symbols.ts';
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
  labels: number;
  elevators: ElevatorTarget[];
  spawnMarks: SpawnMark[];
  doorMarks: DoorMark[];
}

// Spawns more than this far above or below the floor are on another level of their room
// (warhead silo, SCP-049's upper chamber) and are drawn hollow.
const LEVEL_TOLERANCE = 4;

type Ctx = CanvasRenderingContext2D;

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

function geometryIn(scene: FloorScene, room: Room): RoomGeometry {
  const g = roomGeometry(room);
  if (room.shape !== 'Undefined' || !scene.openArea) return g;
  const a = scene.openArea;
  return { ...g, body: { x0: a.minX, z0: a.minZ, x1: a.maxX, z1: a.maxZ } };
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
  // Outline pass then fill pass, so touching pieces merge into one clean shape.
  const grow = Math.max(1, Math.min(2.5, t.scale * 0.25));
  ctx.fillStyle = P.OUTLINE;
  for (const { g } of solid) {
    for (const c of g.corridors) fillRect(ctx, t, c, grow);
    if (g.body) fillRect(ctx, t, g.body, grow);
  }
  for (const { room, g } of solid) {
    ctx.fillStyle = P.ZONE_FILL[room.zone];
    for (const c of g.corridors) fillRect(ctx, t, c);
  }
  for (const { room, g } of solid) {
    if (!g.body) continue;
    ctx.fillStyle = P.ZONE_BODY[room.zone];
    fillRect(ctx, t, g.body);
  }
}

function drawOpenAreaNote(ctx: Ctx, scene: FloorScene, t: Transform): void {
  const a = scene.openArea;
  if (!a) return;
  const { sx, sy } = t.toScreen((a.minX + a.maxX) / 2, a.minZ);
  ctx.save();
  ctx.font = 'italic 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillStyle = P.LABEL;
  ctx.fillText('Open area: its layout is not part of the map data', sx, sy - 6);
  ctx.restore();
}

function drawHover(ctx: Ctx, scene: FloorScene, t: Transform, room: Room): void {
  const g = geometryIn(scene, room);
  const r = g.body && room.shape === 'Undefined' ? g.body : g.cell;
  const a = t.toScreen(r.x0, r.z1);
  const b = t.toScreen(r.x1, r.z0);
  ctx.save();
  ctx.strokeStyle = P.HOVER;
  ctx.lineWidth = 2;
  ctx.setLineDash([5, 3]);
  ctx.strokeRect(a.sx + 1, a.sy + 1, b.sx - a.sx - 2, b.sy - a.sy - 2);
  ctx.restore();
}

/** Rooms whose map label would repeat its neighbour's: the Entrance half of a zone checkpoint. */
function mapLabelSkipped(room: Room): boolean {
  return room.name === 'HczCheckpointToEntranceZone' && room.zone === 'Entrance';
}

function drawLabels(ctx: Ctx, scene: FloorScene, t: Transform, teslaIcons: boolean): number {
  const cellPx = 15 * t.scale;
  if (cellPx < 24) return 0;
  const size = Math.round(Math.min(15, Math.max(10, cellPx * 0.2)));
  ctx.save();
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = P.LABEL_HALO;
  ctx.fillStyle = P.LABEL;
  const placed: { x0: number; y0: number; x1: number; y1: number }[] = [];
  let count = 0;
  for (const room of scene.rooms) {
    const label = roomLabel(room, scene.checkpointSplitZ);
    if (!label || mapLabelSkipped(room)) continue;
    const fullWidth = ctx.measureText(label.full).width;
    const text = fullWidth <= cellPx * 1.5 ? label.full : label.short;
    const w = ctx.measureText(text).width;
    const centre = t.toScreen(room.x, room.z);
    const sx = centre.sx;
    // A tesla icon sits on the room centre; move the label below it.
    const sy = teslaIcons && room.name === 'HczTesla' ? centre.sy + size + 2 : centre.sy;
    const box = { x0: sx - w / 2 - 2, y0: sy - size / 2 - 2, x1: sx + w / 2 + 2, y1: sy + size / 2 + 2 };
    if (placed.some((p) => p.x0 < box.x1 && box.x0 < p.x1 && p.y0 < box.y1 && box.y0 < p.y1)) continue;
    placed.push(box);
    ctx.strokeText(text, sx, sy);
    ctx.fillText(text, sx, sy);
    count++;
  }
  ctx.restore();
  return count;
}

function drawElevators(ctx: Ctx, scene: FloorScene, t: Transform): ElevatorTarget[] {
  const out: ElevatorTarget[] = [];
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
      const off = end.shape === 'Undefined' ? { x: -8 + nth * 16, z: -11 } : { x: 4.5, z: 4.5 };
      const { sx, sy } = t.toScreen(end.x + off.x, end.z + off.z);
      drawElevator(ctx, sx, sy, size);
      if (t.scale * 15 >= 40 || end.shape === 'Undefined') {
        ctx.save();
        ctx.font = `600 ${Math.max(10, Math.round(size * 0.55))}px system-ui, sans-serif`;
        ctx.textBaseline = 'middle';
        ctx.lineWidth = 3;
        ctx.lineJoin = 'round';
        ctx.strokeStyle = P.LABEL_HALO;
        ctx.fillStyle = P.LABEL;
        const caption = elevatorCaption(other);
        ctx.textAlign = end.shape === 'Undefined' ? 'center' : 'left';
        const tx = end.shape === 'Undefined' ? sx : sx + size / 2 + 3;
        const ty = end.shape === 'Undefined' ? sy + size : sy;
        ctx.strokeText(caption, tx, ty);
        ctx.fillText(caption, tx, ty);
        ctx.restore();
      }
      out.push({ sx, sy, size, room: end, other });
    }
  }
  return out;
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
  if (scene.openArea) drawOpenAreaNote(ctx, scene, t);

  let links = 0;
  const keys = new Set(scene.rooms.map(roomKey));
  for (const link of scene.links) {
    if (link.kind !== 'checkpoint' || !keys.has(roomKey(link.a)) || !keys.has(roomKey(link.b))) continue;
    const a = t.toScreen(link.a.x, link.a.z);
    const b = t.toScreen(link.b.x, link.b.z);
    drawLink(ctx, a.sx, a.sy, b.sx, b.sy, Math.max(2, t.scale * 0.6));
    links++;
  }

  if (opts.hover) drawHover(ctx, scene, t, opts.hover);

  let teslas = 0;
  if (opts.layers.teslas) {
    const r = Math.max(6, Math.min(14, t.scale * 2));
    for (const tesla of scene.teslas) {
      const { sx, sy } = t.toScreen(tesla.x, tesla.z);
      drawTesla(ctx, sx, sy, r);
      teslas++;
    }
  }

  const doorMarks: DoorMark[] = [];
  if (opts.layers.doors) {
    const len = Math.max(7, Math.min(28, t.scale * 4));
    for (const door of scene.doors) {
      const { sx, sy } = t.toScreen(door.x, door.z);
      drawDoor(ctx, sx, sy, door.rotY, len, door.checkpoint);
      doorMarks.push({ sx, sy, door });
    }
  }
  const doors = doorMarks.length;

  const spawnMarks: SpawnMark[] = [];
  const filtering = opts.itemFilter !== ALL || opts.structureFilter !== ALL;
  const markSize = Math.max(4, Math.min(9, t.scale * 0.9));
  const matches: SpawnMark[] = [];
  for (const spawn of scene.spawns) {
    const show =
      spawn.kind === 'structure'
        ? opts.layers.structures && structureMatches(spawn, opts.structureFilter)
        : opts.layers.items && itemMatches(spawn, opts.itemFilter);
    if (!show) continue;
    const { sx, sy } = t.toScreen(spawn.x, spawn.z);
    const mark = { sx, sy, spawn };
    spawnMarks.push(mark);
    const isMatch =
      filtering &&
      ((spawn.kind === 'item' && opts.itemFilter !== ALL) ||
        (spawn.kind === 'structure' && opts.structureFilter !== ALL));
    // Matches are drawn last so they stay on top of everything else.
    if (isMatch) matches.push(mark);
    else drawSpawn(ctx, mark, scene.floorY, markSize, false);
  }
  const elevators = drawElevators(ctx, scene, t);
  const labels = drawLabels(ctx, scene, t, opts.layers.teslas && scene.teslas.length > 0);
  // Filter matches go over the labels: they are what the reader is looking for.
  for (const m of matches) drawSpawn(ctx, m, scene.floorY, markSize * 1.5, true);
  return {
    rooms: scene.rooms.length,
    spawns: spawnMarks.length,
    doors,
    teslas,
    links,
    labels,
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
