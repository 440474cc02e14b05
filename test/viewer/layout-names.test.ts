import { describe, expect, it } from 'vitest';
import { generateMap } from '../../generator/facility.ts';
import { parseMap } from '../../renderer/parse-map.ts';
import { floorLayouts, layoutName } from '../../viewer/src/map/layout-names.ts';
import { referenceMap } from './fixture.ts';

describe('layout names', () => {
  it("names each zone's layout as the generator drew it (seed 224593721: LCZ 5, HCZ 2, EZ 4)", () => {
    const map = parseMap(generateMap(224593721));
    expect(layoutName(map, 'LightContainment')).toBe('LCZ layout 5');
    expect(floorLayouts(map, 'hcz')).toEqual(['HCZ layout 2', 'EZ layout 4']);
    expect(floorLayouts(map, 'surface')).toEqual([]);
  });

  it('says nothing for maps made before the map carried its layouts', () => {
    expect(referenceMap.layouts).toEqual({});
    expect(floorLayouts(referenceMap, 'lcz')).toEqual([]);
  });
});
