import { h } from '../dom.ts';
import type { Controls } from './map-controls.ts';
import type { FindBox } from './find-box.ts';

// Where the map page's parts go. Wide screens: one side column with every control, the map beside
// it. Narrow (a phone): the search on top, the map, then the quick bar (floors, layers); the seed
// box and filters fold into a panel, which a button opens, and the route shows as a bar over the map.

/** Below this width the controls fold into a panel and the map takes the screen. */
const NARROW = '(max-width: 899px)';

export interface LayoutParts {
  controls: Controls;
  seedBox: HTMLElement;
  find: FindBox;
  routePanel: HTMLElement;
  legend: HTMLDetailsElement;
  /** The map with what sits over it (info, caption, zoom buttons, status). */
  area: HTMLElement;
  /** Filters, legend, help: below the seed box. */
  more: HTMLElement;
  summary: HTMLElement;
}

export interface MapLayout {
  narrow(): boolean;
  setPanel(open: boolean): void;
  /** Places the parts in `main`, and again whenever the screen turns narrow or wide. */
  place(parts: LayoutParts): void;
  dispose(): void;
}

/**
 * Narrow screens only. Its name says what it opens; on screen it reads "Seed", as the panel
 * starts with the seed box.
 */
function panelToggleButton(): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'panel-toggle',
      'aria-label': 'Seed & filters',
      'aria-controls': 'map-panel',
      'aria-expanded': 'false',
    },
    'Seed',
  );
}

/**
 * `panelOpen`: whether the panel opens where it folds (nothing is loaded yet); `changed`: called
 * after a change of arrangement (the map's box changed).
 */
export function createLayout(main: HTMLElement, on: { panelOpen(): boolean; changed(): void }): MapLayout {
  const narrow = window.matchMedia(NARROW);
  const panel = h('aside', { id: 'map-panel', class: 'map-panel', 'aria-label': 'Seed and map options' });
  const heading = h('h1', { class: 'visually-hidden' }, 'Facility map');
  const top = h('div', { class: 'map-top' });
  const toggle = panelToggleButton();
  let parts: LayoutParts | undefined;

  const setPanel = (open: boolean): void => {
    panel.hidden = narrow.matches && !open;
    toggle.setAttribute('aria-expanded', String(!panel.hidden));
  };
  const arrange = (p: LayoutParts): void => {
    const { controls, seedBox, find, routePanel, legend, area, more, summary } = p;
    if (narrow.matches) {
      panel.replaceChildren(seedBox, more);
      top.replaceChildren(find.el, toggle);
      // Over the map, so the route's summary shows with the panel folded.
      area.append(routePanel);
      main.append(heading, top, area, controls.quick, panel, summary);
      legend.open = false;
      setPanel(on.panelOpen());
    } else {
      panel.replaceChildren(seedBox, find.el, routePanel, controls.quick, more);
      top.remove();
      main.append(heading, panel, area, summary);
      legend.open = true;
      setPanel(true);
    }
    on.changed();
  };
  const onChange = (): void => void (parts && arrange(parts));
  narrow.addEventListener('change', onChange);
  toggle.addEventListener('click', () => setPanel(panel.hidden !== false));
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && narrow.matches) {
      setPanel(false);
      toggle.focus();
    }
  });
  return {
    narrow: () => narrow.matches,
    setPanel,
    place(p) {
      parts = p;
      arrange(p);
    },
    dispose() {
      narrow.removeEventListener('change', onChange);
    },
  };
}
