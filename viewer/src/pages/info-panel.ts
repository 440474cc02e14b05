import { h } from '../dom.ts';
import type { MapCanvas } from './map-canvas.ts';
import type { MapStore } from './map-store.ts';

// The info panel over the map, whose code (map-info.ts) loads with the first hover, tap or key on
// the map, not on a first visit: until then this waits for the first frame drawn with something
// hovered or pinned.

export function createInfoPanel(
  store: MapStore,
  canvas: MapCanvas,
  on: { route(end: 'from' | 'to', id: string): void; loaded(): void },
): HTMLElement {
  const el = h('div', { class: 'info', id: 'map-info', 'aria-live': 'polite', hidden: true });
  const stop = canvas.onFrame(() => {
    if (!store.model.hover && !store.model.pinned) return;
    stop();
    void import('./map-tools.ts').then((m) => {
      m.createMapInfo({ el, store, canvas, route: on.route });
      on.loaded();
    });
  });
  return el;
}
