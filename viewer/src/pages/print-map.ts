import { h } from '../dom.ts';
import type * as PngExport from './png-export.ts';
import type { FloorPicture } from './png-export.ts';

// Printing: the whole floor with its seed and legend (the PNG's picture), turned light. The map is
// drawn for a dark screen; on paper its greys are turned over (dark ground to white, white labels
// to black) and dark colours lightened, while the light zone colours stay as they are.

/** Colour spread below which a pixel counts as grey. */
const GREY_SPREAD = 40;
const DARK_MAX = 128;

/** Turns the dark picture light in place. */
export function lighten(data: Uint8ClampedArray): void {
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const max = Math.max(r, g, b);
    if (max - Math.min(r, g, b) < GREY_SPREAD) {
      data[i] = 255 - r;
      data[i + 1] = 255 - g;
      data[i + 2] = 255 - b;
    } else if (max < DARK_MAX) {
      const up = (255 - max) * 0.75;
      data[i] = r + up;
      data[i + 1] = g + up;
      data[i + 2] = b + up;
    }
  }
}

type PictureModule = typeof PngExport;
let pictures: PictureModule | undefined;

/**
 * The picture code, loaded when first needed (it is not part of a first visit's bytes). A reader's
 * first key or touch loads it, so a print (Ctrl+P, the menu) finds it ready.
 */
export async function pictureModule(): Promise<PictureModule> {
  return (pictures ??= await import('./png-export.ts'));
}

/**
 * Keeps a light picture of the floor in `host` while the page is printed (or about to be); the
 * print stylesheet shows it in place of the map. Returns the detach function.
 */
export function attachPrintMap(host: HTMLElement, picture: () => FloorPicture | undefined): () => void {
  const img = h('img', { class: 'print-map', alt: '' });
  const print = window.matchMedia('print');
  const preload = (): void => void pictureModule();
  const render = (): void => {
    if (!pictures) return void pictureModule().then(render);
    const p = picture();
    img.remove();
    if (!p) return;
    const canvas = pictures.floorPicture(p);
    const g = canvas.getContext('2d');
    if (!g) return;
    const pixels = g.getImageData(0, 0, canvas.width, canvas.height);
    lighten(pixels.data);
    g.putImageData(pixels, 0, 0);
    img.src = canvas.toDataURL('image/png');
    img.alt = p.caption;
    host.append(img);
  };
  const onChange = (): void => {
    if (print.matches) render();
  };
  print.addEventListener('change', onChange);
  window.addEventListener('beforeprint', render);
  for (const type of ['keydown', 'pointerdown'] as const)
    document.addEventListener(type, preload, { once: true, passive: true });
  return () => {
    for (const type of ['keydown', 'pointerdown'] as const) document.removeEventListener(type, preload);
    print.removeEventListener('change', onChange);
    window.removeEventListener('beforeprint', render);
    img.remove();
  };
}
