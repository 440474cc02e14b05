import type { FloorId } from '../../../renderer/floors.ts';
import { ALL } from '../../../renderer/spawn-filter.ts';
import type { FindResult } from '../map/find.ts';
import type { MapState } from '../state/url-state.ts';
import type { MapCanvas } from './map-canvas.ts';
import type { ControlHandlers } from './map-controls.ts';
import { attachInteraction } from './map-interaction.ts';
import type { MapStore } from './map-store.ts';
import type { ViewActions } from './map-view.ts';

// What the reader's choices do to the map page's store: a floor, layers and filters, a route's
// ends, what Find chose, and pointer and key input on the map. Each is a commit.

export function showFloor(store: MapStore, floor: FloorId): void {
  store.commit({ state: { floor, cx: undefined, cz: undefined, zoom: 1 } }, { url: 'push' });
}

/** The controls that only change the state: floor, layers and filters. */
export function stateHandlers(
  store: MapStore,
): Pick<ControlHandlers, 'setFloor' | 'setLayer' | 'setItemFilter' | 'setStructFilter'> {
  const filter = (patch: Partial<MapState>): void => store.commit({ state: patch }, { url: 'replace' });
  const layers = (): MapState['layers'] => store.model.state.layers;
  return {
    setFloor: (floor) => showFloor(store, floor),
    setLayer: (key, on) => filter({ layers: { ...layers(), [key]: on } }),
    // Choosing a filter shows its layer.
    setItemFilter: (item) => filter({ item, layers: { ...layers(), items: layers().items || item !== ALL } }),
    setStructFilter: (struct) =>
      filter({ struct, layers: { ...layers(), structures: layers().structures || struct !== ALL } }),
  };
}

export function setRouteEnd(store: MapStore, end: 'from' | 'to', id: string): void {
  const { state, pendingEnds } = store.model;
  const ends = { ...(state.route ?? pendingEnds), [end]: id };
  // One end so far: keep it and ask for the other.
  if (ends.from && ends.to)
    store.commit({ state: { route: { from: ends.from, to: ends.to } }, pendingEnds: {} }, { url: 'push' });
  else store.commit({ state: { route: undefined }, pendingEnds: ends }, { url: 'push' });
}

/** Shows what Find chose, on its floor and zoomed in on it. */
export function chooseFound(store: MapStore, view: ViewActions, r: FindResult): void {
  store.commit({ state: { find: r.entry.id, floor: r.floor } });
  const t = r.entry.floors[r.floor];
  const scene = store.scene();
  store.commit({ state: t && scene ? view.viewOn(t, scene) : {} }, { url: 'push' });
}

/** Pointer and keys on the map: the view moves, hovering describes, a tap or Enter pins a card. */
export function attachInput(store: MapStore, canvas: MapCanvas, view: ViewActions): () => void {
  const pinAt = (sx: number, sy: number): void => {
    const e = canvas.elevatorAt(sx, sy);
    if (e) return view.takeElevator(e);
    // A tap or Enter opens the room's card for good (its buttons can then be reached); empty map closes it.
    store.commit({ pinned: canvas.roomAtPoint(sx, sy) });
  };
  return attachInteraction(canvas.el, {
    pan: view.pan,
    zoom: view.zoom,
    reset: view.reset,
    hover(sx, sy) {
      store.commit({ hover: { kind: 'point', sx, sy } });
      canvas.el.classList.toggle('over-elevator', !!canvas.elevatorAt(sx, sy));
    },
    leave() {
      if (store.model.hover?.kind === 'point') store.commit({ hover: undefined });
    },
    tap(sx, sy) {
      store.commit({ hover: { kind: 'point', sx, sy } });
      pinAt(sx, sy);
    },
    keyboard(active) {
      const hover = store.model.hover;
      store.commit({
        keyboard: active,
        hover: active ? { kind: 'centre' } : hover?.kind === 'centre' ? undefined : hover,
      });
    },
    activate() {
      const vp = canvas.viewport();
      store.commit({ hover: { kind: 'centre' } });
      pinAt(vp.width / 2, vp.height / 2);
    },
    settle: () => store.commit({}, { url: 'replace' }),
  });
}
