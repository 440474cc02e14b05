import type { SeedItem, SeedPage } from '../api/types.ts';
import { h } from '../dom.ts';
import { formatInt } from '../format.ts';

// One known seed as a link to its map, as the seed list and the home page show it.

export function isSeedPage(v: unknown): v is SeedPage {
  return typeof v === 'object' && v !== null && Array.isArray((v as SeedPage).items);
}

export function seedRow(item: SeedItem, base: string): HTMLLIElement {
  const badges = h('span', { class: 'badges' });
  if (item.dumped) badges.append(h('span', { class: 'badge ok', 'data-badge': 'dumped' }, 'Generated'));
  if (item.detected) badges.append(h('span', { class: 'badge seen', 'data-badge': 'detected' }, 'Detected'));
  return h(
    'li',
    { 'data-seed': item.seed },
    h(
      'a',
      { href: `${base}/seed/${item.seed}`, class: 'seed-row' },
      h('span', { class: 'seed-number' }, `Seed ${item.seed}`),
      h(
        'span',
        { class: 'seed-counts' },
        `${formatInt(item.roomCount)} rooms · ${formatInt(item.spawns)} spawns`,
      ),
      badges,
    ),
  );
}
