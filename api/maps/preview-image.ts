import { createCanvas } from '@napi-rs/canvas';
import { parseMap } from '../../renderer/parse-map.ts';
import type { MapData } from '../../renderer/map-types.ts';
import { floorById } from '../../renderer/floors.ts';
import type { FloorId } from '../../renderer/floors.ts';
import { BACKGROUND } from '../../renderer/palette.ts';
import { renderMap } from '../../renderer/render-map.ts';
import { buildScene } from '../../renderer/scene.ts';
import { ALL } from '../../renderer/spawn-filter.ts';
import { boundsCentre, makeTransform } from '../../renderer/view-transform.ts';
import { encodePng } from './png.ts';

// The link-preview picture of a seed (og:image): its two facility floors side by side under a
// caption, drawn by the viewer's own renderMap on a Canvas 2D from npm (@napi-rs/canvas, whose
// Skia binary ships in its platform package), so it looks like the map a visitor then opens.

/** The size chat apps show large (summary_large_image): 1.91:1. */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;
const CAPTION_PX = 56;
const PANEL_FLOORS: readonly FloorId[] = ['lcz', 'hcz'];
const TEXT = '#e8eaed';
const MUTED = '#aab2bd';
const FONT = 'system-ui, sans-serif';

/** The preview of a map as PNG bytes. */
export async function renderPreview(map: MapData): Promise<Buffer> {
  const canvas = createCanvas(PREVIEW_WIDTH, PREVIEW_HEIGHT);
  // @napi-rs/canvas implements the browser's CanvasRenderingContext2D; its own type differs in
  // details renderMap does not use (image sources, DOM matrices).
  const g = canvas.getContext('2d') as unknown as CanvasRenderingContext2D;
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, PREVIEW_WIDTH, PREVIEW_HEIGHT);
  g.fillStyle = TEXT;
  g.font = `600 26px ${FONT}`;
  g.textBaseline = 'middle';
  g.fillText(`Seed ${map.seed} – SCP: Secret Laboratory facility map`, 20, CAPTION_PX / 2);
  const width = PREVIEW_WIDTH / PANEL_FLOORS.length;
  const vp = { width, height: PREVIEW_HEIGHT - CAPTION_PX };
  PANEL_FLOORS.forEach((floor, i) => {
    const scene = buildScene(map, floor);
    const t = makeTransform({ ...boundsCentre(scene.bounds), zoom: 1 }, scene.bounds, vp);
    g.save();
    g.translate(i * width, CAPTION_PX);
    g.beginPath();
    g.rect(0, 0, vp.width, vp.height);
    g.clip();
    renderMap(g, scene, t, vp, {
      layers: { doors: true, teslas: true, structures: false, items: false },
      itemFilter: ALL,
      structureFilter: ALL,
    });
    g.fillStyle = MUTED;
    g.font = `600 18px ${FONT}`;
    g.textBaseline = 'top';
    g.fillText(floorById(floor).label, 12, 8);
    g.restore();
  });
  // Opaque: the background covers every pixel first.
  return encodePng(canvas.data(), PREVIEW_WIDTH, PREVIEW_HEIGHT);
}

/** The preview of a map body as GET /maps/{seed} answers it (JSON bytes). */
export const renderPreviewOf = (json: Buffer): Promise<Buffer> =>
  renderPreview(parseMap(JSON.parse(json.toString('utf8'))));
