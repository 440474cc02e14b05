import { floorName } from '../map/describe.ts';
import { BACKGROUND } from '../../../renderer/palette.ts';
import { renderMap } from '../../../renderer/render-map.ts';
import { routeOnFloor } from '../map/route-ends.ts';
import { boundsCentre, makeTransform } from '../../../renderer/view-transform.ts';
import type { MapStore } from './map-store.ts';
import type { FloorPicture } from './png-export.ts';

/**
 * The whole floor as "PNG" saves it and print shows it: the fit view, with what is on, found and
 * routed now, and the route's summary under the caption.
 */
export function mapPicture(store: MapStore, legend: HTMLElement): FloorPicture | undefined {
  const { map, state, routed } = store.model;
  const { route, text } = routed;
  const sc = store.scene();
  if (!map || !sc) return undefined;
  return {
    bounds: sc.bounds,
    draw(g, vp) {
      const t = makeTransform({ ...boundsCentre(sc.bounds), zoom: 1 }, sc.bounds, vp);
      renderMap(g, sc, t, vp, {
        layers: state.layers,
        itemFilter: state.item,
        structureFilter: state.struct,
        selection: store.foundTargets(),
        route: route ? routeOnFloor(route, state.floor) : undefined,
      });
    },
    background: BACKGROUND,
    caption: `seedblock · seed ${map.seed} · ${floorName(state.floor)}`,
    note: state.route ? text : undefined,
    legend,
    fileName: `seed-${map.seed}-${state.floor}.png`,
  };
}
