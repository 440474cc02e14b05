import { h } from '../dom.ts';

// Keyboard shortcuts of the map page: the `?` dialog that lists them, and the page-wide keys
// (the map canvas handles its own: arrows, + and −, 0, Enter). Keys typed into a field, or with
// Ctrl, Alt or Meta held, are left alone.

export interface ShortcutHandlers {
  find(): void;
  step(step: 'previous' | 'random' | 'next'): void;
  floor(n: number): void;
  zoomIn(): void;
  zoomOut(): void;
  fit(): void;
}

const LIST: readonly [string[], string][] = [
  [['/'], 'Find on this map'],
  [['P', 'N'], 'Previous or next seed in the seed list'],
  [['R'], 'A random seed'],
  [['1', '2', '3'], 'Light Containment, Heavy Containment + Entrance, Surface'],
  [['+', '−'], 'Zoom in or out'],
  [['0'], 'Fit the floor in the window'],
  [['←', '↑', '→', '↓'], 'Move the map (when it has focus; Shift moves further)'],
  [['Enter'], 'Take the elevator under the crosshair (map focused)'],
  [['?'], 'Show this list'],
  [['Esc'], 'Close this list, or the search results'],
];

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
}

export interface Shortcuts {
  /** Opens the list (also the `?` key). */
  show(): void;
  detach(): void;
}

/** Mounts the dialog on `parent` and listens on the document. */
export function attachShortcuts(parent: HTMLElement, on: ShortcutHandlers): Shortcuts {
  const close = h('button', { type: 'button', class: 'dialog-close' }, 'Close');
  const dl = h('dl', { class: 'shortcut-list' });
  for (const [keys, what] of LIST) {
    dl.append(h('dt', {}, ...keys.flatMap((k, i) => [i ? ' ' : '', h('kbd', {}, k)])), h('dd', {}, what));
  }
  const dialog = h(
    'dialog',
    { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
    h('h2', { id: 'shortcuts-title' }, 'Keyboard shortcuts'),
    dl,
    close,
  );
  close.addEventListener('click', () => dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) dialog.close();
  });
  parent.append(dialog);

  const onKey = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || typingIn(e.target)) return;
    if (dialog.open) return; // the dialog handles Escape itself
    const actions: Record<string, () => void> = {
      '?': () => dialog.showModal(),
      '/': on.find,
      p: () => on.step('previous'),
      n: () => on.step('next'),
      r: () => on.step('random'),
      '1': () => on.floor(0),
      '2': () => on.floor(1),
      '3': () => on.floor(2),
      '+': on.zoomIn,
      '=': on.zoomIn,
      '-': on.zoomOut,
      '0': on.fit,
    };
    const act = actions[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };
  document.addEventListener('keydown', onKey);
  return {
    show: () => dialog.showModal(),
    detach() {
      document.removeEventListener('keydown', onKey);
      dialog.remove();
    },
  };
}
