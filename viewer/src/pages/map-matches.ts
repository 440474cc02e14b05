import type { Spawn } from '../../../renderer/map-types.ts';
import { FLOORS } from '../../../renderer/floors.ts';
import type { FloorId } from '../../../renderer/floors.ts';
import { ALL, itemMatches, structureMatches } from '../../../renderer/spawn-filter.ts';
import { h } from '../dom.ts';
import { matchesPerFloor } from '../map/describe.ts';
import type { MapStore } from './map-store.ts';

// "Matching items: LCZ 3 · HCZ + EZ 1 · Surface 0" under the filters, each floor a button that
// shows it. It follows the store: the map and the two filters.

export function createMatches(store: MapStore, showFloor: (floor: FloorId) => void): HTMLElement {
  const el = h('p', { class: 'matches', 'aria-live': 'polite' });
  store.follow(['map', 'item', 'struct'], ({ map, state }) => {
    el.replaceChildren();
    if (!map) return;
    const parts: [string, (s: Spawn) => boolean][] = [];
    if (state.item !== ALL) parts.push(['items', (s) => itemMatches(s, state.item)]);
    if (state.struct !== ALL) parts.push(['structures', (s) => structureMatches(s, state.struct)]);
    for (const [what, test] of parts) {
      const per = matchesPerFloor(map.spawns, test);
      const line = h('span', {}, `Matching ${what}: `);
      FLOORS.forEach((f, i) => {
        const b = h(
          'button',
          { type: 'button', class: 'link', 'data-floor': f.id },
          `${f.label} ${per[f.id]}`,
        );
        b.addEventListener('click', () => showFloor(f.id));
        line.append(i ? ' · ' : '', b);
      });
      el.append(line, ' ');
    }
  });
  return el;
}
