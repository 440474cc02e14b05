import { describe, expect, it } from 'vitest';
import { lighten } from '../../viewer/src/pages/print-map.ts';
import { BACKGROUND, LABEL, ZONE_FILL } from '../../renderer/palette.ts';

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const printed = (hex: string) => {
  const data = new Uint8ClampedArray([...rgb(hex), 255]);
  lighten(data);
  return [...data.slice(0, 3)];
};

describe('the printed map', () => {
  it('turns the dark ground white and white labels black, and keeps the zone colours', () => {
    expect(Math.min(...printed(BACKGROUND))).toBeGreaterThan(225);
    expect(Math.max(...printed(LABEL))).toBe(0);
    for (const zone of ['LightContainment', 'HeavyContainment', 'Entrance'] as const)
      expect(printed(ZONE_FILL[zone])).toEqual(rgb(ZONE_FILL[zone]));
  });

  it('lightens a dark colour and keeps its hue', () => {
    const [r, g, b] = printed('#602010');
    expect(r).toBeGreaterThan(200);
    expect(r).toBeGreaterThan(g!);
    expect(g).toBeGreaterThan(b!);
  });
});
