import type { MapCanvas } from './map-canvas.ts';
import { NO_ROUTE } from './map-store.ts';
import type { MapStore } from './map-store.ts';

// Keeps the store's `routed` (the route the state names, and the route panel's line) in step with
// the map, the route's ends and the Find index that names them. The routing code loads with the
// first route asked for: most visits never route.

export function followRouting(store: MapStore, needIndex: () => void, canvas: MapCanvas): void {
  store.follow(['map', 'route', 'pendingEnds', 'findIndex'], ({ map, state, pendingEnds, findIndex }) => {
    if (!map || !(state.route || pendingEnds.from || pendingEnds.to))
      return store.commit({ routed: NO_ROUTE });
    // The ends are named in the Find index: shown once it is there (its commit comes back here).
    if (!findIndex.length) return needIndex();
    // Made from the model as it is when the code is there, so a late answer is never stale.
    void import('./map-tools.ts').then((m) => {
      store.commit({ routed: m.routeView(store.model) });
      // Drawn with the panel's line, not a frame later.
      canvas.drawNow();
    });
  });
}
