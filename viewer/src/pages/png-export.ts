import type { Box } from '../../../renderer/box.ts';
import type { Viewport } from '../../../renderer/view-transform.ts';

// "PNG": the whole floor at twice its on-screen detail, whatever the view, with the seed and floor
// above it (and the route's summary, when a route is shown) and the legend beside it, so a saved or
// shared picture explains itself.

const SCALE = 2;
/** CSS px of the floor's longer side in the picture (times SCALE in pixels). */
const FLOOR_PX = 1100;
const CAPTION_PX = 36;
const LEGEND_PX = 300;
const LEGEND_ROW_PX = 26;
const NOTE_ROW_PX = 20;
const TEXT = '#e8eaed';
const FONT = 'system-ui, sans-serif';

export interface FloorPicture {
  bounds: Box;
  /** Draws the whole floor fitted into `vp` (CSS px) on `g`. */
  draw(g: CanvasRenderingContext2D, vp: Viewport): void;
  /** The map's background colour, behind the caption and legend too. */
  background: string;
  caption: string;
  /** A line under the caption (the route's summary), wrapped to the picture's width. */
  note?: string | undefined;
  /** The page's legend: each entry's swatch canvas and text are copied into the picture. */
  legend: HTMLElement;
  fileName: string;
}

/** The floor's size in the picture, its longer side FLOOR_PX. */
function floorViewport(b: Box): Viewport {
  const w = Math.max(1, b.x1 - b.x0);
  const h = Math.max(1, b.y1 - b.y0);
  const k = FLOOR_PX / Math.max(w, h);
  return { width: Math.round(Math.max(w * k, 400)), height: Math.round(Math.max(h * k, 400)) };
}

function drawLegend(g: CanvasRenderingContext2D, legend: HTMLElement, x: number, y: number): void {
  g.fillStyle = TEXT;
  g.font = `600 15px ${FONT}`;
  g.fillText('Legend', x, y + 10);
  g.font = `13px ${FONT}`;
  let row = y + 10 + LEGEND_ROW_PX;
  for (const li of Array.from(legend.querySelectorAll('li'))) {
    const swatch = li.querySelector('canvas');
    if (swatch) g.drawImage(swatch, x, row - 11, 22, 22);
    g.fillText(li.textContent?.trim() ?? '', x + 30, row, LEGEND_PX - 40);
    row += LEGEND_ROW_PX;
  }
}

/** Words of `text` in lines no wider than `width` as `g` measures them. */
function wrap(g: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The picture's canvas (also what tests read back). */
export function floorPicture(p: FloorPicture): HTMLCanvasElement {
  const vp = floorViewport(p.bounds);
  const rows = p.legend.querySelectorAll('li').length + 1;
  const width = vp.width + LEGEND_PX;
  const out = document.createElement('canvas');
  const measure = out.getContext('2d');
  if (measure) measure.font = `14px ${FONT}`;
  const note = p.note && measure ? wrap(measure, p.note, width - 24) : [];
  const top = CAPTION_PX + note.length * NOTE_ROW_PX;
  const height = top + Math.max(vp.height, rows * LEGEND_ROW_PX + 20);
  out.width = width * SCALE;
  out.height = height * SCALE;
  const g = out.getContext('2d');
  if (!g) return out;
  g.scale(SCALE, SCALE);
  g.fillStyle = p.background;
  g.fillRect(0, 0, width, height);
  g.fillStyle = TEXT;
  g.font = `600 16px ${FONT}`;
  g.textBaseline = 'middle';
  g.fillText(p.caption, 12, CAPTION_PX / 2);
  g.font = `14px ${FONT}`;
  note.forEach((line, i) => g.fillText(line, 12, CAPTION_PX + (i + 0.3) * NOTE_ROW_PX));
  g.save();
  g.translate(0, top);
  g.beginPath();
  g.rect(0, 0, vp.width, vp.height);
  g.clip();
  p.draw(g, vp);
  g.restore();
  drawLegend(g, p.legend, vp.width + 12, top + 8);
  return out;
}

export function downloadFloorPng(p: FloorPicture): void {
  floorPicture(p).toBlob((blob) => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = p.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Revoke later: some browsers start the download asynchronously.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }, 'image/png');
}
