import { floorById } from '../../../renderer/floors.ts';
import { h } from '../dom.ts';
import { floorName, mapSummary } from '../map/describe.ts';
import { floorLayouts } from '../map/layout-names.ts';
import type { MapStore } from './map-store.ts';

// The page's words for the shown map: the document's title, the caption over the map, the canvas's
// label and the text summary for screen readers. They follow the store: the map and the floor.

export function createMapHead(
  store: MapStore,
  canvas: HTMLElement,
): { caption: HTMLElement; summary: HTMLElement } {
  const caption = h('p', { class: 'map-caption', 'aria-hidden': 'true', hidden: true });
  const summary = h('div', { id: 'map-summary', class: 'visually-hidden' });
  store.follow(['map', 'floor'], ({ map, state }) => {
    canvas.setAttribute(
      'aria-label',
      map ? `Map of seed ${map.seed}, ${floorName(state.floor)}` : 'Facility map (no seed loaded)',
    );
    document.title = map ? `Seed ${map.seed} · ${floorName(state.floor)} – seedblock` : 'Map – seedblock';
    // The layout's name where the map has one: "Seed 5 · LCZ layout 4", else the floor's short name.
    const where = map ? floorLayouts(map, state.floor).join(' · ') || floorById(state.floor).short : '';
    caption.textContent = map ? `Seed ${map.seed} · ${where}` : '';
    caption.hidden = !map;
    summary.replaceChildren(...(map ? mapSummary(map, state.floor).map((line) => h('p', {}, line)) : []));
  });
  return { caption, summary };
}
