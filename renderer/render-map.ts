import { doorsLayer } from './layers/doors.ts';
import { elevatorsLayer } from './layers/elevators.ts';
import type { Ctx, Frame, MapLayer, RenderOptions, SymbolMark } from './layers/layer.ts';
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
  SpawnMark,
  SymbolMark,
} from './layers/layer.ts';

/**
 * The layers of one map view, bottom first: the symbols over the rooms, then the labels placed
 * clear of them. Each keeps what it last drew, so a view that is pointed at keeps its own set.
 */
export function mapLayers() {
  return {
    rooms: roomsLayer(),
    links: linksLayer(),
    route: routeLayer,
    highlight: highlightLayer(),
    teslas: teslasLayer(),
    doors: doorsLayer(),
    spawns: spawnsLayer(),
    elevators: elevatorsLayer(),
    places: placesLayer,
    labels: labelsLayer(),
  } satisfies Record<string, MapLayer>;
}

export type MapLayers = ReturnType<typeof mapLayers>;

/**
 * Draw one floor with `layers` (a fresh set for a picture nobody points at). The canvas context
 * must already be scaled to CSS pixels. Returns the screen boxes of the symbols drawn.
 */
export function renderMap(
  ctx: Ctx,
  scene: FloorScene,
  t: Transform,
  vp: Viewport,
  opts: RenderOptions,
  layers: MapLayers = mapLayers(),
): readonly SymbolMark[] {
  ctx.fillStyle = P.BACKGROUND;
  ctx.fillRect(0, 0, vp.width, vp.height);
  const frame: Frame = { ctx, scene, t, vp, opts, symbols: [], captions: [], onTop: [] };
  for (const layer of Object.values(layers)) layer.draw(frame);
  for (const draw of frame.onTop) draw();
  return frame.symbols;
}
