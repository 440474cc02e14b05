import { doorsLayer } from './layers/doors.ts';
import { elevatorsLayer } from './layers/elevators.ts';
import type { Ctx, Frame, MapLayer, RenderOptions, RenderResult } from './layers/layer.ts';
import { labelsLayer } from './layers/labels.ts';
import { linksLayer } from './layers/links.ts';
import { placesLayer } from './layers/places.ts';
import { highlightLayer, roomsLayer } from './layers/rooms.ts';
import { routeLayer } from './layers/route.ts';
import { spawnsLayer } from './layers/spawns.ts';
import { teslasLayer } from './layers/teslas.ts';
import * as P from './palette.ts';
import type { FloorScene } from './scene.ts';
import type { Transform, Viewport } from './view-transform.ts';

export type {
  DoorMark,
  ElevatorTarget,
  LabelMark,
  Layers,
  MapLayer,
  RenderOptions,
  RenderResult,
  SpawnMark,
  SymbolMark,
} from './layers/layer.ts';

/** The built-in layers, bottom first; `opts.extra` layers go between the symbols and the labels. */
const BELOW: readonly MapLayer[] = [
  roomsLayer,
  linksLayer,
  routeLayer,
  highlightLayer,
  teslasLayer,
  doorsLayer,
];
const SYMBOLS: readonly MapLayer[] = [spawnsLayer, elevatorsLayer, placesLayer];

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
  const out: RenderResult = {
    rooms: 0,
    spawns: 0,
    doors: 0,
    teslas: 0,
    links: 0,
    labels: [],
    symbols: [],
    selected: opts.selection?.rooms.length ?? 0,
    elevators: [],
    spawnMarks: [],
    doorMarks: [],
  };
  const frame: Frame = { ctx, scene, t, vp, opts, out, captions: [], onTop: [] };
  for (const layer of [...BELOW, ...SYMBOLS, ...(opts.extra ?? []), labelsLayer]) layer.draw(frame);
  for (const draw of frame.onTop) draw();
  return out;
}
