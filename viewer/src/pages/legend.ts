import type { Zone } from '../../../renderer/map-types.ts';
import { h } from '../dom.ts';
import * as P from '../../../renderer/palette.ts';
import { CATEGORY_LABEL, ITEM_CATEGORIES } from '../../../renderer/spawn-kinds.ts';
import {
  drawDoor,
  drawElevator,
  drawItem,
  drawLink,
  drawStructure,
  drawTesla,
} from '../../../renderer/symbols.ts';

// The legend draws its swatches with the same functions as the map, on small canvases.

type Painter = (ctx: CanvasRenderingContext2D, w: number, h: number) => void;

function swatch(paint: Painter): HTMLCanvasElement {
  const size = 22;
  const dpr = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const c = h('canvas', {
    width: size * dpr,
    height: size * dpr,
    class: 'legend-swatch',
    'aria-hidden': 'true',
  });
  const ctx = c.getContext('2d');
  if (ctx) {
    ctx.scale(dpr, dpr);
    paint(ctx, size, size);
  }
  return c;
}

const zoneSwatch =
  (zone: Zone, body: boolean): Painter =>
  (ctx, w, hh) => {
    ctx.fillStyle = P.OUTLINE;
    ctx.fillRect(2, 2, w - 4, hh - 4);
    ctx.fillStyle = body ? P.ZONE_BODY[zone] : P.ZONE_FILL[zone];
    ctx.fillRect(4, 4, w - 8, hh - 8);
  };

const corridorSwatch: Painter = (ctx, w, hh) => {
  ctx.fillStyle = P.OUTLINE;
  ctx.fillRect(0, hh / 2 - 5, w, 10);
  ctx.fillStyle = P.ZONE_FILL.HeavyContainment;
  ctx.fillRect(0, hh / 2 - 3, w, 6);
};

export function createLegend(): HTMLDetailsElement {
  const entries: [Painter, string][] = [
    [zoneSwatch('LightContainment', false), 'Light Containment'],
    [zoneSwatch('HeavyContainment', false), 'Heavy Containment'],
    [zoneSwatch('Entrance', false), 'Entrance'],
    [zoneSwatch('Surface', false), 'Surface'],
    [corridorSwatch, 'Corridor (openings per room shape)'],
    [zoneSwatch('HeavyContainment', true), 'Named room (lighter)'],
    [(c, w, hh) => drawDoor(c, w / 2, hh / 2, 0, 16, false), 'Heavy door or gate'],
    [(c, w, hh) => drawDoor(c, w / 2, hh / 2, 0, 16, true), 'Checkpoint door'],
    [(c, w, hh) => drawTesla(c, w / 2, hh / 2, 8), 'Tesla gate'],
    [(c, w, hh) => drawElevator(c, w / 2, hh / 2, 16), 'Elevator (click to change floor)'],
    [(c, w, hh) => drawLink(c, 3, hh / 2, w - 3, hh / 2, 3), 'Checkpoint passage between zones'],
    [(c, w, hh) => drawStructure(c, w / 2, hh / 2, 9, false, false), 'Structure spawn point'],
    ...ITEM_CATEGORIES.map((cat): [Painter, string] => [
      (c, w, hh) => drawItem(c, w / 2, hh / 2, 8, cat, false, false),
      `Item spawn: ${CATEGORY_LABEL[cat].toLowerCase()}`,
    ]),
    [(c, w, hh) => drawItem(c, w / 2, hh / 2, 7, 'other', true, false), 'Ring: on another level of the room'],
    [(c, w, hh) => drawItem(c, w / 2, hh / 2, 5, 'keycard', false, true), 'Matches the chosen type'],
  ];
  const list = h('ul', { class: 'legend-list' });
  for (const [paint, text] of entries) list.appendChild(h('li', {}, swatch(paint), h('span', {}, text)));
  return h('details', { class: 'legend', open: true }, h('summary', {}, 'Legend'), list);
}
