import * as P from './palette.ts';
import type { ItemCategory } from './spawn-kinds.ts';

// Marker glyphs, shared by the map renderer and the legend so both always look the same.
// All sizes are in CSS pixels; callers pass positions already on screen.

type Ctx = CanvasRenderingContext2D;

const doorThickness = (len: number): number => Math.max(3, len * 0.28);

/** Outer size of a door panel drawn `len` long, outline included. */
export function doorSize(len: number): { long: number; thick: number } {
  return { long: len + 3, thick: doorThickness(len) + 3 };
}

/** A door panel: along the x axis at rotY 0, turned clockwise by rotY. */
export function drawDoor(
  ctx: Ctx,
  sx: number,
  sy: number,
  rotY: number,
  len: number,
  checkpoint: boolean,
): void {
  const thick = doorThickness(len);
  ctx.save();
  ctx.translate(sx, sy);
  ctx.rotate((rotY * Math.PI) / 180);
  ctx.fillStyle = P.OUTLINE;
  ctx.fillRect(-len / 2 - 1.5, -thick / 2 - 1.5, len + 3, thick + 3);
  ctx.fillStyle = checkpoint ? P.CHECKPOINT_DOOR : P.DOOR;
  ctx.fillRect(-len / 2, -thick / 2, len, thick);
  if (checkpoint) {
    // Hazard stripes mark checkpoints even for colour-blind readers.
    ctx.fillStyle = P.OUTLINE;
    const step = Math.max(3, len / 4);
    for (let x = -len / 2 + step / 2; x < len / 2; x += step) ctx.fillRect(x, -thick / 2, step / 3, thick);
  }
  ctx.restore();
}

export function drawTesla(ctx: Ctx, sx: number, sy: number, r: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.arc(sx, sy, r, 0, Math.PI * 2);
  ctx.fillStyle = P.OUTLINE;
  ctx.fill();
  ctx.lineWidth = Math.max(1.5, r * 0.18);
  ctx.strokeStyle = P.TESLA;
  ctx.stroke();
  // Lightning bolt.
  const s = r * 0.65;
  ctx.beginPath();
  ctx.moveTo(sx + s * 0.2, sy - s);
  ctx.lineTo(sx - s * 0.45, sy + s * 0.1);
  ctx.lineTo(sx + s * 0.05, sy + s * 0.1);
  ctx.lineTo(sx - s * 0.2, sy + s);
  ctx.lineTo(sx + s * 0.45, sy - s * 0.1);
  ctx.lineTo(sx - s * 0.05, sy - s * 0.1);
  ctx.closePath();
  ctx.fillStyle = P.TESLA;
  ctx.fill();
  ctx.restore();
}

/** Structure spawn point: a square. Hollow when on another level of the room. */
export function drawStructure(
  ctx: Ctx,
  sx: number,
  sy: number,
  size: number,
  offLevel: boolean,
  match: boolean,
): void {
  const h = size / 2;
  ctx.save();
  ctx.fillStyle = P.OUTLINE;
  ctx.fillRect(sx - h - 1, sy - h - 1, size + 2, size + 2);
  const colour = match ? P.MATCH : P.STRUCTURE;
  if (offLevel) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1.2, size * 0.25);
    ctx.strokeRect(sx - h + 0.75, sy - h + 0.75, size - 1.5, size - 1.5);
  } else {
    ctx.fillStyle = colour;
    ctx.fillRect(sx - h, sy - h, size, size);
  }
  ctx.restore();
}

type Glyph = (ctx: Ctx, x: number, y: number, r: number) => void;

// One dark glyph per item category, drawn on the category's coloured badge: shape and colour both
// tell the categories apart (colour-blind readers get the shape).
const GLYPHS: Readonly<Record<ItemCategory, Glyph>> = {
  weapon(ctx, x, y, r) {
    // A pistol: barrel and grip.
    ctx.fillRect(x - r * 0.6, y - r * 0.35, r * 1.2, r * 0.35);
    ctx.fillRect(x - r * 0.6, y - r * 0.05, r * 0.35, r * 0.6);
  },
  ammo(ctx, x, y, r) {
    for (const dx of [-0.45, 0, 0.45]) ctx.fillRect(x + dx * r - r * 0.12, y - r * 0.5, r * 0.24, r);
  },
  medical(ctx, x, y, r) {
    ctx.fillRect(x - r * 0.6, y - r * 0.18, r * 1.2, r * 0.36);
    ctx.fillRect(x - r * 0.18, y - r * 0.6, r * 0.36, r * 1.2);
  },
  keycard(ctx, x, y, r) {
    ctx.fillRect(x - r * 0.6, y - r * 0.4, r * 1.2, r * 0.8);
  },
  armour(ctx, x, y, r) {
    ctx.beginPath();
    ctx.moveTo(x - r * 0.55, y - r * 0.5);
    ctx.lineTo(x + r * 0.55, y - r * 0.5);
    ctx.lineTo(x + r * 0.45, y + r * 0.15);
    ctx.lineTo(x, y + r * 0.65);
    ctx.lineTo(x - r * 0.45, y + r * 0.15);
    ctx.closePath();
    ctx.fill();
  },
  grenade(ctx, x, y, r) {
    ctx.beginPath();
    ctx.arc(x, y + r * 0.12, r * 0.45, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillRect(x - r * 0.15, y - r * 0.6, r * 0.3, r * 0.3);
  },
  scp(ctx, x, y, r) {
    ctx.beginPath();
    ctx.moveTo(x, y - r * 0.62);
    ctx.lineTo(x + r * 0.62, y);
    ctx.lineTo(x, y + r * 0.62);
    ctx.lineTo(x - r * 0.62, y);
    ctx.closePath();
    ctx.fill();
  },
  other(ctx, x, y, r) {
    ctx.beginPath();
    ctx.arc(x, y, r * 0.28, 0, Math.PI * 2);
    ctx.fill();
  },
};

/**
 * Item spawn point: a badge in its category's colour with the category's glyph, radius r. On
 * another level of the room it is a ring of that colour; a match gets a green halo.
 */
export function drawItem(
  ctx: Ctx,
  sx: number,
  sy: number,
  r: number,
  category: ItemCategory,
  offLevel: boolean,
  match: boolean,
): void {
  ctx.save();
  if (match) {
    // A halo ring keeps matches findable at any zoom and over labels.
    ctx.beginPath();
    ctx.arc(sx, sy, r * 1.8, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(57,255,136,0.22)';
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = P.MATCH;
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.arc(sx, sy, r + 1, 0, Math.PI * 2);
  ctx.fillStyle = P.OUTLINE;
  ctx.fill();
  const colour = P.ITEM_CATEGORY[category];
  if (offLevel) {
    ctx.beginPath();
    ctx.arc(sx, sy, r * 0.75, 0, Math.PI * 2);
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(1.5, r * 0.4);
    ctx.stroke();
  } else {
    ctx.beginPath();
    ctx.arc(sx, sy, r, 0, Math.PI * 2);
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.fillStyle = P.OUTLINE;
    GLYPHS[category](ctx, sx, sy, r);
  }
  ctx.restore();
}

/** Elevator: a dark tile with up and down arrows. */
export function drawElevator(ctx: Ctx, sx: number, sy: number, size: number): void {
  const h = size / 2;
  ctx.save();
  ctx.fillStyle = P.OUTLINE;
  ctx.fillRect(sx - h, sy - h, size, size);
  ctx.strokeStyle = P.ELEVATOR;
  ctx.lineWidth = Math.max(1, size / 12);
  ctx.strokeRect(sx - h + 1, sy - h + 1, size - 2, size - 2);
  ctx.fillStyle = P.ELEVATOR;
  const a = size * 0.3;
  ctx.beginPath();
  ctx.moveTo(sx - a * 0.9, sy - a * 0.15);
  ctx.lineTo(sx - a * 0.25, sy - a);
  ctx.lineTo(sx + a * 0.4, sy - a * 0.15);
  ctx.closePath();
  ctx.fill();
  ctx.beginPath();
  ctx.moveTo(sx - a * 0.4, sy + a * 0.15);
  ctx.lineTo(sx + a * 0.25, sy + a);
  ctx.lineTo(sx + a * 0.9, sy + a * 0.15);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

/** A dashed connector between two points (checkpoint passages). */
export function drawLink(ctx: Ctx, ax: number, ay: number, bx: number, by: number, width: number): void {
  ctx.save();
  ctx.lineCap = 'round';
  ctx.strokeStyle = P.OUTLINE;
  ctx.lineWidth = width + 3;
  ctx.beginPath();
  ctx.moveTo(ax, ay);
  ctx.lineTo(bx, by);
  ctx.stroke();
  ctx.strokeStyle = P.LINK;
  ctx.lineWidth = width;
  ctx.setLineDash([width * 2, width * 1.5]);
  ctx.stroke();
  ctx.restore();
}

/** Keyboard crosshair at the view centre: what the info panel describes while using the keys. */
export function drawCrosshair(ctx: Ctx, sx: number, sy: number): void {
  const x = Math.round(sx) + 0.5;
  const y = Math.round(sy) + 0.5;
  ctx.save();
  for (const [colour, width] of [
    [P.OUTLINE, 4],
    [P.HOVER, 2],
  ] as const) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x - 12, y);
    ctx.lineTo(x + 12, y);
    ctx.moveTo(x, y - 12);
    ctx.lineTo(x, y + 12);
    ctx.stroke();
  }
  ctx.restore();
}
