import { describe, expect, it } from 'vitest';
import { buildFindIndex } from '../../viewer/src/map/find.ts';
import { nameOfId, routeView } from '../../viewer/src/pages/map-route.ts';
import { createMapStore, mapPatch } from '../../viewer/src/pages/map-store.ts';
import type { Change } from '../../viewer/src/pages/map-store.ts';
import { parseMapState } from '../../viewer/src/state/url-state.ts';
import { referenceMap } from './fixture.ts';

// The map page's one state (issue 30.1): a commit tells each subscriber what changed and writes
// the link; derived scenes are rebuilt per map and floor.

function store(search = '?floor=lcz') {
  const urls: [string, boolean][] = [];
  const s = createMapStore(parseMapState('/seed/224593721', search), (url, push) => urls.push([url, push]));
  const seen: Change[][] = [];
  s.subscribe((_m, changed) => seen.push([...changed].sort()));
  return { s, urls, seen };
}

describe('the map store', () => {
  it('tells subscribers exactly what a commit changed, and nothing when nothing did', () => {
    const { s, seen } = store();
    s.commit({ state: { floor: 'hcz', zoom: 1 } });
    s.commit({ state: { floor: 'hcz' } });
    s.commit({ hover: { kind: 'centre' } });
    expect(seen).toEqual([['floor'], ['hover']]);
  });

  it('calls a part that follows some keys only after a commit that changed one of them', () => {
    const { s } = store();
    const floors: string[] = [];
    const stop = s.follow(['floor', 'map'], (m) => floors.push(m.state.floor));
    s.commit({ hover: { kind: 'centre' } });
    s.commit({ state: { floor: 'hcz' } });
    s.commit({ state: { floor: 'hcz', zoom: 2 } });
    stop();
    s.commit({ state: { floor: 'surface' } });
    expect(floors).toEqual(['hcz']);
  });

  it('writes the link at once for a push, with the state as a link carries it', () => {
    const { s, urls } = store();
    s.commit({ state: { floor: 'surface' } }, { url: 'push' });
    expect(urls).toEqual([['/seed/224593721?floor=surface&layers=doors,teslas', true]]);
    s.dispose();
  });

  it('builds the shown floor’s scene once per map and floor, and forgets it with the map', () => {
    const { s } = store();
    expect(s.scene()).toBeUndefined();
    s.commit(mapPatch(referenceMap));
    const lcz = s.scene();
    expect(lcz?.floor).toBe('lcz');
    expect(s.sceneOf('lcz')).toBe(lcz);
    s.commit({ state: { floor: 'hcz' } });
    expect(s.scene()?.floor).toBe('hcz');
    s.commit(mapPatch(undefined));
    expect(s.scene()).toBeUndefined();
  });

  it('finds what the link names, and the route between two rooms', () => {
    const { s } = store('?floor=lcz&find=room:scp-914&route=room:class-d-cells~room:gate-a');
    s.commit(mapPatch(referenceMap));
    // The index comes with the first need of it (the page builds it when a link names a find).
    expect(s.found()).toBeUndefined();
    s.commit({ findIndex: buildFindIndex(referenceMap) });
    expect(s.found()?.name).toBe('SCP-914');
    expect(s.foundTargets()?.rooms.length).toBe(1);
    const r = routeView(s.model);
    expect(r.route?.rooms[0]?.name).toBe('LczClassDSpawn');
    expect(r.text).toMatch(/^Route: \d+ m, about \d+ s .* From Class-D Cells to Gate A\.$/);
  });
});

describe('route ends', () => {
  const index = buildFindIndex(referenceMap);
  it('names an end the map lacks by its player name, not its id', () => {
    expect(nameOfId(index, 'room:scp-079')).toBe('SCP-079');
    expect(nameOfId([], 'room:cafeteria')).toBe('Cafeteria');
    expect(nameOfId([], 'room:pc-15-cafe')).toBe('PC-15 (Cafe)');
    expect(nameOfId([], 'room:no-such-place')).toBe('no such place');
  });
});
