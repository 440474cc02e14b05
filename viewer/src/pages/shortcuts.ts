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

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
}

export interface Shortcuts {
  /** Opens the list (also the `?` key). */
  show(): void;
  detach(): void;
}

/** Listens on the document; the dialog is built (and its code loaded) when first asked for. */
export function attachShortcuts(parent: HTMLElement, on: ShortcutHandlers): Shortcuts {
  let dialog: HTMLDialogElement | undefined;
  const show = (): void =>
    void import('./shortcut-list.ts').then((m) => {
      dialog ??= m.shortcutDialog(parent);
      dialog.showModal();
    });
  const onKey = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || typingIn(e.target)) return;
    if (dialog?.open) return; // the dialog handles Escape itself
    const actions: Record<string, () => void> = {
      '?': show,
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
    show,
    detach() {
      document.removeEventListener('keydown', onKey);
      dialog?.remove();
    },
  };
}
