import { h } from '../dom.ts';
import type { Controls } from './map-controls.ts';
import type { FindBox } from './find-box.ts';
import type { RoutePanel } from './route-panel.ts';

// Where the map page's parts go. Wide screens: one side column with every control, the map beside
// it. Narrow (a phone): the search on top, the map, then the quick bar (floors, layers); the seed
// box and filters fold into a panel, and the route shows as a bar over the map.

/** Below this width the controls fold into a panel and the map takes the screen. */
const NARROW = '(max-width: 899px)';

export interface LayoutParts {
  main: HTMLElement;
  controls: Controls;
  find: FindBox;
  routePanel: RoutePanel;
  legend: HTMLDetailsElement;
  /** The map with what sits over it (info, caption, zoom buttons, status). */
  area: HTMLElement;
  /** Filters, legend, help: below the seed box. */
  more: HTMLElement;
  summary: HTMLElement;
  /** Called after a change of arrangement (the map's box changed). */
  changed(): void;
}

export interface MapLayout {
  panel: HTMLElement;
  narrow(): boolean;
  setPanel(open: boolean): void;
  /** Opens the panel where it folds and nothing is loaded yet. */
  arrange(panelOpen: boolean): void;
  dispose(): void;
}

export function createLayout(p: LayoutParts, panelOpen: () => boolean): MapLayout {
  const narrow = window.matchMedia(NARROW);
  const panel = h('aside', { id: 'map-panel', class: 'map-panel', 'aria-label': 'Seed and map options' });
  const heading = h('h1', { class: 'visually-hidden' }, 'Facility map');
  const top = h('div', { class: 'map-top' });
  const { controls, find, routePanel, legend, area, more, main, summary } = p;

  const layout: MapLayout = {
    panel,
    narrow: () => narrow.matches,
    setPanel(open) {
      panel.hidden = narrow.matches && !open;
      controls.panelToggle.setAttribute('aria-expanded', String(!panel.hidden));
    },
    arrange(open) {
      if (narrow.matches) {
        panel.replaceChildren(controls.seedBlock, more);
        top.replaceChildren(find.el, controls.panelToggle);
        // Over the map, so the route's summary shows with the panel folded.
        area.append(routePanel.el);
        main.append(heading, top, area, controls.quick, panel, summary);
        legend.open = false;
        layout.setPanel(open);
      } else {
        panel.replaceChildren(controls.seedBlock, find.el, routePanel.el, controls.quick, more);
        top.remove();
        main.append(heading, panel, area, summary);
        legend.open = true;
        layout.setPanel(true);
      }
      p.changed();
    },
    dispose() {
      narrow.removeEventListener('change', onChange);
    },
  };
  const onChange = (): void => layout.arrange(panelOpen());
  narrow.addEventListener('change', onChange);
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && narrow.matches) {
      layout.setPanel(false);
      controls.panelToggle.focus();
    }
  });
  return layout;
}
