import { h } from '../dom.ts';
import { formatDuration, formatInt, formatUtc } from '../format.ts';

// Small SVG charts for the statistics page. Each is a figure whose SVG is an image with a text
// alternative (role=img, aria-label) saying what it shows. The SVG is drawn in CSS pixels of its
// box and redrawn when the box changes size, so text stays readable on a phone.

const NS = 'http://www.w3.org/2000/svg';

type SvgAttrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: SvgAttrs = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export interface Chart {
  el: HTMLElement;
  /** Redraw for the current width of the figure. */
  draw(): void;
}

function figure(name: string, caption: string, alt: string, paint: (width: number) => SVGSVGElement): Chart {
  const holder = h('div', { class: 'chart-box' });
  const tip = h('div', { class: 'chart-tip', role: 'tooltip', hidden: true });
  const el = h('figure', { class: 'chart', 'data-chart': name }, h('figcaption', {}, caption), holder, tip);
  const draw = (): void => {
    const picture = paint(Math.max(240, Math.floor(holder.clientWidth || 480)));
    picture.setAttribute('role', 'img');
    picture.setAttribute('aria-label', alt);
    picture.prepend(svg('title', {}, alt));
    holder.replaceChildren(picture);
  };
  // Hover details: any mark with data-tip shows it next to the pointer.
  holder.addEventListener('pointermove', (e) => {
    const mark = (e.target as Element).closest?.('[data-tip]');
    if (!mark) {
      tip.hidden = true;
      return;
    }
    tip.textContent = mark.getAttribute('data-tip');
    tip.hidden = false;
    const box = el.getBoundingClientRect();
    const x = Math.min(e.clientX - box.left + 12, box.width - tip.offsetWidth - 4);
    tip.style.left = `${Math.max(0, x)}px`;
    tip.style.top = `${e.clientY - box.top + 14}px`;
  });
  holder.addEventListener('pointerleave', () => (tip.hidden = true));
  return { el, draw };
}

export interface BarValue {
  label: string;
  value: number;
}

const BAR_ROW = 28;
const BAR_H = 18;

/** Horizontal bars against a common scale, the value written at each bar's end. */
export function barChart(name: string, caption: string, bars: readonly BarValue[]): Chart {
  const alt = `${caption}: ${bars.map((b) => `${b.label} ${formatInt(b.value)}`).join(', ')}.`;
  return figure(name, caption, alt, (width) => {
    const labelW = Math.min(150, Math.round(width * 0.4));
    const valueW = 70;
    const max = Math.max(1, ...bars.map((b) => b.value));
    const span = width - labelW - valueW;
    const height = bars.length * BAR_ROW;
    const out = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'bars' });
    bars.forEach((b, i) => {
      const y = i * BAR_ROW;
      const w = b.value > 0 ? Math.max(2, (b.value / max) * span) : 0;
      const g = svg('g', { 'data-tip': `${b.label}: ${formatInt(b.value)}` });
      g.append(
        svg('text', { x: 0, y: y + BAR_H / 2 + 5, class: 'chart-label' }, b.label),
        svg('rect', { x: labelW, y: y + 2, width: span, height: BAR_H, rx: 3, class: 'bar-track' }),
        svg('rect', { x: labelW, y: y + 2, width: w, height: BAR_H, rx: 3, class: 'bar-fill' }),
        svg('text', { x: labelW + w + 6, y: y + BAR_H / 2 + 6, class: 'chart-value' }, formatInt(b.value)),
      );
      out.append(g);
    });
    return out;
  });
}

export interface Span {
  seed: number;
  at: string;
  endedAt: string;
  viewAttempts: number;
  /** The kind of key that held the window (absent for windows ended before the API said). */
  keyKind?: string;
}

/** The kinds of key a window can be held by (spec 2.1), as the timeline names and colours them. */
const KEY_KINDS: Record<string, string> = {
  plugin: 'Game server (plugin)',
  self: 'Game server (self-claim)',
  http: 'HTTP key',
};
const kindOf = (s: Span): string => (s.keyKind && s.keyKind in KEY_KINDS ? s.keyKind : 'unknown');
const kindLabel = (kind: string): string => KEY_KINDS[kind] ?? 'Key of unknown kind';

const LANE = 26;
const LANE_BAR = 16;
const AXIS_H = 22;

/** "14:05" for times within a day of each other, "05-31 14:05" otherwise (UTC). */
function tickText(t: number, wide: boolean): string {
  const iso = new Date(t).toISOString();
  return wide ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
}

/**
 * One bar per window (at least one) from its start to its end on a shared time axis, newest on top,
 * coloured by the kind of key that held it (with a legend of the kinds shown).
 */
export function timeline(name: string, caption: string, spans: readonly Span[]): Chart {
  const lengths = spans.map((s) => (Date.parse(s.endedAt) - Date.parse(s.at)) / 1000);
  const tipOf = (s: Span, i: number): string =>
    `Seed ${s.seed}: blocked ${formatDuration(lengths[i])} by ${kindLabel(kindOf(s))}, ${formatUtc(s.at)} to ${formatUtc(s.endedAt)}, ${formatInt(s.viewAttempts)} view${s.viewAttempts === 1 ? '' : 's'} refused`;
  const alt = `${caption}: ${spans.map((s, i) => `seed ${s.seed} for ${formatDuration(lengths[i])} (${kindLabel(kindOf(s))})`).join('; ')}.`;
  const kinds = [...new Set(spans.map(kindOf))];
  const chart = figure(name, caption, alt, (width) => {
    const starts = spans.map((s) => Date.parse(s.at));
    const ends = spans.map((s) => Date.parse(s.endedAt));
    let t0 = Math.min(...starts);
    let t1 = Math.max(...ends);
    if (!(t1 - t0 > 60_000)) {
      // Windows all within a minute: show a minute around them.
      const mid = (t0 + t1) / 2;
      t0 = mid - 30_000;
      t1 = mid + 30_000;
    }
    const labelW = 92;
    const right = 12;
    const span = width - labelW - right;
    const x = (t: number): number => labelW + ((t - t0) / (t1 - t0)) * span;
    const height = AXIS_H + Math.max(1, spans.length) * LANE;
    const out = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'timeline' });
    const wide = t1 - t0 > 86_400_000;
    const ticks = Math.max(2, Math.min(6, Math.floor(span / 110)));
    for (let i = 0; i < ticks; i++) {
      const t = t0 + ((t1 - t0) * i) / (ticks - 1);
      const tx = x(t);
      const anchor = i === 0 ? 'start' : i === ticks - 1 ? 'end' : 'middle';
      out.append(
        svg('line', { x1: tx, x2: tx, y1: AXIS_H - 4, y2: height, class: 'grid-line' }),
        svg('text', { x: tx, y: 12, 'text-anchor': anchor, class: 'chart-tick' }, tickText(t, wide)),
      );
    }
    spans.forEach((s, i) => {
      const y = AXIS_H + i * LANE;
      const x0 = x(starts[i] ?? t0);
      // A window of seconds on a day-long axis still gets a visible bar.
      const w = Math.max(4, x(ends[i] ?? t0) - x0);
      const kind = kindOf(s);
      const g = svg('g', {
        'data-tip': tipOf(s, i),
        'data-seed': s.seed,
        'data-kind': kind,
        class: 'window',
      });
      g.append(
        svg('text', { x: 0, y: y + LANE_BAR / 2 + 6, class: 'chart-label' }, String(s.seed)),
        // The whole lane answers the pointer (under the bar), so short bars are easy to hover.
        svg('rect', { x: labelW, y, width: span, height: LANE, class: 'hit' }),
        svg('rect', { x: x0, y: y + 3, width: w, height: LANE_BAR, rx: 3, class: `bar-fill kind-${kind}` }),
      );
      out.append(g);
    });
    return out;
  });
  chart.el.append(
    h(
      'ul',
      { class: 'chart-legend', 'aria-label': 'Kinds of key' },
      ...kinds.map((kind) =>
        h('li', { 'data-kind': kind }, h('span', { class: `swatch kind-${kind}` }), kindLabel(kind)),
      ),
    ),
  );
  return chart;
}
