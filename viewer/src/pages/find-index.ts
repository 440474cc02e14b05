import type { MapCanvas } from './map-canvas.ts';
import type { MapStore } from './map-store.ts';
import type { ViewActions } from './map-view.ts';

// The map's Find index, built the first time something needs it (Find, a link naming something
// found or a route, the room card): a first visit that uses none of them never loads it. It follows
// the store: a map or a link that names something found asks for it.

/** Returns what asks for the index (a no-op while it is there or no map is shown). */
export function findIndexLoader(store: MapStore, view: ViewActions, canvas: MapCanvas): () => void {
  const need = (): void => {
    const { map } = store.model;
    if (!map || store.model.findIndex.length) return;
    void import('./map-tools.ts').then(({ buildFindIndex }) => {
      if (store.model.map !== map || store.model.findIndex.length) return;
      store.commit({ findIndex: buildFindIndex(map) });
      // A shared link naming something found but no view: open on what it names.
      const { cx, cz } = store.model.state;
      const t = store.foundTargets();
      const scene = store.scene();
      if (t && scene && (cx === undefined || cz === undefined))
        store.commit({ state: view.viewOn(t, scene) });
      // Drawn with what the box and the route panel now say, not a frame later.
      canvas.drawNow();
    });
  };
  store.follow(['map', 'find'], (m) => {
    if (m.state.find) need();
  });
  return need;
}
