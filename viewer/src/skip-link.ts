// The skip link lands on the map where there is one (the canvas takes the keyboard), else on the
// page's main region. Handled before the viewer's own link routing, which would reload the page.

export function attachSkipLink(): void {
  document.addEventListener(
    'click',
    (e) => {
      const link = (e.target as Element | null)?.closest?.('a.skip-link');
      if (!link) return;
      e.preventDefault();
      const target = document.getElementById('map-canvas') ?? document.getElementById('main');
      target?.focus();
    },
    { capture: true },
  );
}
