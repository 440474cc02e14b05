import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAYERS,
  parseMapState,
  parseSeed,
  serializeMapState,
} from '../../viewer/src/state/url-state.ts';

describe('parseSeed', () => {
  it('accepts whole numbers 1..2147483647 only', () => {
    expect(parseSeed('224593721')).toEqual({ kind: 'valid', seed: 224593721 });
    expect(parseSeed(' 1 ')).toEqual({ kind: 'valid', seed: 1 });
    expect(parseSeed('2147483647')).toEqual({ kind: 'valid', seed: 2147483647 });
    expect(parseSeed('2147483648').kind).toBe('invalid');
    expect(parseSeed('0').kind).toBe('invalid');
    expect(parseSeed('-5').kind).toBe('invalid');
    expect(parseSeed('1e5').kind).toBe('invalid');
    expect(parseSeed('12.5').kind).toBe('invalid');
    expect(parseSeed('abc')).toEqual({ kind: 'invalid', raw: 'abc' });
    expect(parseSeed('')).toEqual({ kind: 'none' });
    expect(parseSeed(null)).toEqual({ kind: 'none' });
  });
});

describe('map deep links', () => {
  it('reads the seed from the path or the query string', () => {
    expect(parseMapState('/seed/123', '').seed).toEqual({ kind: 'valid', seed: 123 });
    expect(parseMapState('/seed/123', '').form).toBe('path');
    expect(parseMapState('/', '?seed=123').seed).toEqual({ kind: 'valid', seed: 123 });
    expect(parseMapState('/', '?seed=123').form).toBe('query');
    expect(parseMapState('/', '').seed).toEqual({ kind: 'none' });
    expect(parseMapState('/seed/12ab', '').seed).toEqual({ kind: 'invalid', raw: '12ab' });
  });

  it('falls back to defaults for missing or unknown values', () => {
    const s = parseMapState('/', '?seed=5&floor=basement&zoom=oops&item=<script>');
    expect(s.floor).toBe('lcz');
    expect(s.zoom).toBe(1);
    expect(s.item).toBe('all');
    expect(s.layers).toEqual(DEFAULT_LAYERS);
    expect(s.cx).toBeUndefined();
  });

  it('clamps zoom and reads explicit layers, including none', () => {
    expect(parseMapState('/', '?zoom=1000').zoom).toBe(12);
    expect(parseMapState('/', '?zoom=0.01').zoom).toBe(0.5);
    expect(parseMapState('/', '?layers=items,doors').layers).toEqual({
      doors: true,
      teslas: false,
      structures: false,
      items: true,
    });
    expect(parseMapState('/', '?layers=none').layers).toEqual({
      doors: false,
      teslas: false,
      structures: false,
      items: false,
    });
  });

  it('writes seed, floor, layers, filters and view back in the form it was opened with', () => {
    const s = parseMapState(
      '/seed/224593721',
      '?floor=hcz&layers=doors,items&item=KeycardScientist&zoom=2.5&cx=60&cz=-15.25',
    );
    expect(serializeMapState(s)).toBe(
      '/seed/224593721?floor=hcz&layers=doors,items&item=KeycardScientist&zoom=2.5&cx=60&cz=-15.3',
    );
    const q = parseMapState('/', '?seed=7&floor=surface');
    expect(serializeMapState(q)).toBe('/?seed=7&floor=surface&layers=doors,teslas');
  });

  it('round-trips: parse(serialize(state)) gives the same state', () => {
    const s = parseMapState(
      '/',
      '?seed=99&floor=hcz&layers=teslas,structures&struct=Workstation&zoom=3&cx=10&cz=20',
    );
    const url = new URL(serializeMapState(s), 'http://x');
    expect(parseMapState(url.pathname, url.search)).toEqual(s);
  });

  it('carries what Find chose, only when something is chosen, and drops malformed ids', () => {
    const s = parseMapState('/seed/224593721', '?floor=hcz&find=room:scp-079');
    expect(s.find).toBe('room:scp-079');
    expect(serializeMapState(s)).toBe('/seed/224593721?floor=hcz&layers=doors,teslas&find=room:scp-079');
    expect(serializeMapState({ ...s, find: undefined })).not.toContain('find');
    expect(parseMapState('/', '?find=item:any-keycard').find).toBe('item:any-keycard');
    expect(parseMapState('/', '?find=<b>').find).toBeUndefined();
    expect(parseMapState('/', '?find=planet:earth').find).toBeUndefined();
    expect(parseMapState('/', '?find=room:').find).toBeUndefined();
  });

  it('carries a route as route=<from>~<to>, readable, and drops anything but two room ids', () => {
    const s = parseMapState('/seed/5', '?floor=lcz&route=room:scp-914~room:gate-a');
    expect(s.route).toEqual({ from: 'room:scp-914', to: 'room:gate-a' });
    expect(serializeMapState(s)).toBe('/seed/5?floor=lcz&layers=doors,teslas&route=room:scp-914~room:gate-a');
    const url = new URL(serializeMapState(s), 'http://x');
    expect(parseMapState(url.pathname, url.search)).toEqual(s);
    expect(serializeMapState({ ...s, route: undefined })).not.toContain('route');
    expect(parseMapState('/', '?route=room:scp-914').route).toBeUndefined();
    expect(parseMapState('/', '?route=item:MicroHID~room:gate-a').route).toBeUndefined();
  });
});
