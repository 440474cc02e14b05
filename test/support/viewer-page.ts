// Reading the map viewer from a Playwright page through its test hooks: main#main data-state,
// canvas#map-canvas data-* counters, the canvas pixels, and Chromium's own accessibility tree.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from 'playwright-core';

/** Screenshots and measurements of the e2e runs (git-ignored). */
const VIEWER_ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/viewer/', import.meta.url));

/** Writes test-artifacts/viewer/<fileName> (a download, a measurement) for a person to look at. */
export function saveArtifact(fileName: string, data: string | Uint8Array): void {
  mkdirSync(VIEWER_ARTIFACTS, { recursive: true });
  writeFileSync(join(VIEWER_ARTIFACTS, fileName), data);
}

/**
 * Saves what the page shows as test-artifacts/viewer/<name>.png, for a person to look at, when
 * E2E_SCREENSHOTS=1: no test reads them, and the forty of a run cost Chromium about 12 CPU-seconds.
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  mkdirSync(VIEWER_ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(VIEWER_ARTIFACTS, `${name}.png`), fullPage });
}

/**
 * The bytes of a finished download. Read as a stream: the e2e project's browser runs in another
 * process (a browser server), so the download has no local path.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Waits until main#main carries `data-state="<state>"` (and, if given, `data-page`). */
export async function waitForState(
  page: Page,
  state: string,
  { page: pageId, timeout = 10_000 }: { page?: string; timeout?: number } = {},
): Promise<void> {
  const sel = `main#main[data-state="${state}"]${pageId ? `[data-page="${pageId}"]` : ''}`;
  await page.locator(sel).waitFor({ state: 'attached', timeout });
}

/** What the last frame of canvas#map-canvas drew, from its data-* hooks. */
export interface Drawn {
  seed: string;
  floor: string;
  zoom: number;
  rooms: number;
  spawns: number;
  doors: number;
  teslas: number;
  links: number;
  /** ms from the map answer's arrival to its first frame (set once per loaded map). */
  drawMs: number;
  drawCount: number;
}

export function drawn(page: Page): Promise<Drawn> {
  return page.locator('canvas#map-canvas').evaluate((el) => {
    const d = (el as HTMLCanvasElement).dataset;
    const n = (v: string | undefined) => (v === undefined ? Number.NaN : Number(v));
    return {
      seed: d.seed ?? '',
      floor: d.floor ?? '',
      zoom: n(d.zoom),
      rooms: n(d.roomsDrawn),
      spawns: n(d.spawnsDrawn),
      doors: n(d.doorsDrawn),
      teslas: n(d.teslasDrawn),
      links: n(d.linksDrawn),
      drawMs: n(d.drawMs),
      drawCount: n(d.drawCount),
    };
  });
}

/** Two animation frames: whatever a change asked to draw has been drawn. */
export function settle(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** Runs `action`, waits for the canvas to draw a new frame, and returns what that frame drew. */
export async function afterDraw(page: Page, action: () => Promise<unknown>): Promise<Drawn> {
  const before = (await drawn(page)).drawCount || 0;
  await action();
  await page.waitForFunction(
    (n) => Number(document.getElementById('map-canvas')?.dataset.drawCount ?? 0) > n,
    before,
  );
  await settle(page);
  return drawn(page);
}

export interface Pixels {
  /** FNV-1a of every pixel: equal hashes mean the same picture. */
  hash: string;
  /** Share of pixels that are not the page background. */
  painted: number;
  /** Pixels of exactly each given colour (#rrggbb). */
  counts: Record<string, number>;
}

/** Reads the map canvas back (it is same-origin, never tainted). */
export function canvasPixels(
  page: Page,
  colours: readonly string[] = [],
  background = '#101418',
): Promise<Pixels> {
  return page.locator('canvas#map-canvas').evaluate(
    (el, { colours, background }) => {
      const canvas = el as HTMLCanvasElement;
      const g = canvas.getContext('2d');
      if (!g || canvas.width === 0 || canvas.height === 0) return { hash: '', painted: 0, counts: {} };
      const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const rgb = (hex: string) => parseInt(hex.slice(1), 16);
      const wanted = new Map(colours.map((c) => [rgb(c), c]));
      const counts: Record<string, number> = Object.fromEntries(colours.map((c) => [c, 0]));
      const bg = rgb(background);
      let hash = 0x811c9dc5;
      let painted = 0;
      for (let i = 0; i < data.length; i += 4) {
        const px = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
        hash = Math.imul(hash ^ px, 0x01000193) >>> 0;
        if (px !== bg) painted++;
        const name = wanted.get(px);
        if (name !== undefined) counts[name]!++;
      }
      return { hash: hash.toString(16), painted: painted / (data.length / 4), counts };
    },
    { colours: [...colours], background },
  );
}

export interface NamedControl {
  html: string;
  role: string;
  name: string;
}

/**
 * Every element matching `selector` that is in the accessibility tree, with the role and the
 * accessible name Chromium computed for it (what a screen reader announces).
 */
export async function accessibleControls(
  page: Page,
  selector = 'input, button, select, textarea, a[href], [tabindex]:not([tabindex="-1"])',
): Promise<NamedControl[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
    const out: NamedControl[] = [];
    for (const nodeId of nodeIds) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const node = nodes[0];
      if (!node || node.ignored) continue; // hidden (e.g. the load-more button at the end of the list)
      const { outerHTML } = await cdp.send('DOM.getOuterHTML', { nodeId });
      out.push({
        html: outerHTML.slice(0, 160),
        role: String(node.role?.value ?? ''),
        name: String(node.name?.value ?? '').trim(),
      });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

/** A screen rectangle in CSS pixels of the canvas. */
export interface ScreenBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const boxesOverlap = (a: ScreenBox, b: ScreenBox): boolean =>
  a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** The labels the last frame drew and the symbols they keep clear of (canvas data-* hooks). */
export function drawnLabels(
  page: Page,
): Promise<{ labels: (ScreenBox & { text: string })[]; symbols: (ScreenBox & { kind: string })[] }> {
  return page.locator('canvas#map-canvas').evaluate((el) => {
    const d = (el as HTMLCanvasElement).dataset;
    type Row = [string, number, number, number, number];
    const rows = (json: string | undefined): Row[] => JSON.parse(json ?? '[]') as Row[];
    return {
      labels: rows(d.labelBoxes).map(([text, x0, y0, x1, y1]) => ({ text, x0, y0, x1, y1 })),
      symbols: rows(d.symbolBoxes).map(([kind, x0, y0, x1, y1]) => ({ kind, x0, y0, x1, y1 })),
    };
  });
}

/** The floor's outline on screen as the last frame drew it (CSS px of the canvas). */
export function floorBox(page: Page): Promise<ScreenBox> {
  return page.locator('canvas#map-canvas').evaluate((el) => {
    const [x0, y0, x1, y1] = ((el as HTMLCanvasElement).dataset.floorBox ?? '').split(',').map(Number);
    return { x0: x0 ?? NaN, y0: y0 ?? NaN, x1: x1 ?? NaN, y1: y1 ?? NaN };
  });
}

/** Bounding box (CSS px) of every canvas pixel that is not the page background. */
export function paintedBox(page: Page, background = '#101418'): Promise<ScreenBox> {
  return page.locator('canvas#map-canvas').evaluate((el, background) => {
    const canvas = el as HTMLCanvasElement;
    const g = canvas.getContext('2d');
    const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    if (!g) return box;
    const { width, height } = canvas;
    const data = g.getImageData(0, 0, width, height).data;
    const bg = parseInt(background.slice(1), 16);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!) === bg) continue;
        box.x0 = Math.min(box.x0, x);
        box.y0 = Math.min(box.y0, y);
        box.x1 = Math.max(box.x1, x + 1);
        box.y1 = Math.max(box.y1, y + 1);
      }
    }
    const dpr = width / canvas.clientWidth;
    return { x0: box.x0 / dpr, y0: box.y0 / dpr, x1: box.x1 / dpr, y1: box.y1 / dpr };
  }, background);
}

/**
 * Touch gestures as a phone's screen reports them (CDP touch events; Chromium turns them into
 * pointer events). Each finger is a list of page points it passes through, all the same length.
 */
export async function touchGesture(
  page: Page,
  fingers: readonly (readonly [number, number])[][],
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const at = (step: number) => fingers.map((path, id) => ({ x: path[step]![0], y: path[step]![1], id }));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let step = 1; step < (fingers[0]?.length ?? 0); step++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(step) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach();
  }
}
