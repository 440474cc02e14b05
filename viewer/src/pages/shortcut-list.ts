import { h } from '../dom.ts';

// The `?` dialog listing the map page's keyboard shortcuts, loaded when first opened.

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

/** The dialog, mounted on `parent`. */
export function shortcutDialog(parent: HTMLElement): HTMLDialogElement {
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
  return dialog;
}
