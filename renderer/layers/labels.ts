import type { Room } from '../map-types.ts';
import { contains } from '../box.ts';
import type { Box } from '../box.ts';
import { roomLabel } from '../labels.ts';
import { placeLabels, spotsAround } from '../label-placement.ts';
import type { LabelRequest, Spot } from '../label-placement.ts';
import * as P from '../palette.ts';
import type { FloorScene } from '../scene.ts';
import type { Transform } from '../view-transform.ts';
import type { Caption, CountingLayer, Frame, LabelMark } from './layer.ts';

/** Below this cell size (a phone showing a whole floor) room names would cover the map. */
const MIN_LABEL_CELL_PX = 16;
/**
 * From this cell size on, every room is named in full ("SCP-173 Chamber", "LCZ Checkpoint B");
 * below it every room by its short name ("173", "Chkp B"): one naming style per zoom.
 */
const FULL_NAMES_CELL_PX = 72;
/** Room kept around a label's text: its halo, and a gap so neighbours never read as one line. */
const LABEL_PAD_PX = 4;

type Request = LabelRequest & { room?: Room };

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

function openAreaRequest(scene: FloorScene, t: Transform): Request[] {
  const a = scene.openArea;
  if (!a) return [];
  const { sx, sy } = t.toScreen((a.x0 + a.x1) / 2, a.y0);
  return [
    {
      texts: ['Open area: its layout is not part of the map data', 'Open area (layout unknown)'],
      x: sx,
      y: sy - 4,
      spots: [{ dx: 0, dy: 0, ax: 0.5, ay: 1 }],
    },
  ];
}

function roomRequests(scene: FloorScene, t: Transform, cellPx: number): Request[] {
  const rooms = scene.rooms
    .map((room, i) => ({ room, i, label: roomLabel(room, scene.checkpointSplitZ) }))
    .filter((r) => r.label && !mapLabelSkipped(r.room))
    .sort((p, q) => labelRank(p.room) - labelRank(q.room) || p.i - q.i);
  // Within the room's cell first, then out to its edges.
  const spots = spotsAround(cellPx * 0.6, cellPx * 0.6, 3);
  const full = cellPx >= FULL_NAMES_CELL_PX;
  const out: Request[] = [];
  for (const { room, label } of rooms) {
    if (!label) continue;
    const { sx, sy } = t.toScreen(room.x, room.z);
    out.push({ texts: [full ? label.full : label.short], x: sx, y: sy, spots, room });
  }
  return out;
}

function captionRequest(c: Caption): Request {
  const gap = c.size / 2 + 3;
  const spots: Spot[] = c.below
    ? [{ dx: 0, dy: gap, ax: 0.5, ay: 0 }]
    : [
        { dx: gap, dy: 0, ax: 0, ay: 0.5 },
        { dx: -gap, dy: 0, ax: 1, ay: 0.5 },
        { dx: 0, dy: gap, ax: 0.5, ay: 0 },
        { dx: 0, dy: -gap, ax: 0.5, ay: 1 },
      ];
  return { texts: [c.text], x: c.sx, y: c.sy, spots };
}

export interface LabelsLayer extends CountingLayer {
  /** What the last frame's labels say and where (the page's test hooks). */
  marks(): readonly LabelMark[];
  /** The room whose label is under a screen point: a label may sit beside its room, or be cut short. */
  roomAt(sx: number, sy: number): Room | undefined;
}

/** Room names, the open area's note and symbol captions, placed clear of every symbol. */
export function labelsLayer(): LabelsLayer {
  let marks: LabelMark[] = [];
  return {
    draw(f) {
      marks = drawLabels(f);
    },
    drawn: () => marks.length,
    marks: () => marks,
    roomAt: (sx, sy) => marks.find((l) => l.room && contains(l.box, sx, sy))?.room,
  };
}

function drawLabels(f: Frame): LabelMark[] {
  const { ctx, scene, t, vp } = f;
  const cellPx = 15 * t.scale;
  const named = cellPx >= MIN_LABEL_CELL_PX;
  if (!named && !scene.openArea) return [];
  const size = Math.round(Math.min(15, Math.max(10, cellPx * 0.2)));
  ctx.save();
  ctx.font = `600 ${size}px system-ui, sans-serif`;
  const widths = new Map<string, number>();
  const measure = (text: string): number => {
    let w = widths.get(text);
    if (w === undefined) widths.set(text, (w = ctx.measureText(text).width));
    return w;
  };
  const screen = { x0: 0, y0: 0, x1: vp.width, y1: vp.height };
  // What lies off screen is not named: its label would cling to the edge, far from its room.
  const requests = [
    ...openAreaRequest(scene, t),
    ...(named ? roomRequests(scene, t, cellPx) : []),
    ...f.captions.map(captionRequest),
  ].filter((r) => contains(screen, r.x, r.y));
  const blocked: Box[] = [...f.symbols.map((s) => s.box), ...(f.opts.avoid ?? [])];
  const placed = placeLabels(requests, blocked, screen, measure, size, LABEL_PAD_PX);
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
