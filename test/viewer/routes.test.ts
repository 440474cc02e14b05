import { describe, expect, it } from 'vitest';
import { pageOf, stripBase } from '../../viewer/src/state/routes.ts';

describe('client routes', () => {
  it('maps paths to pages', () => {
    expect(pageOf('/')).toBe('home');
    expect(pageOf('/', '?floor=hcz')).toBe('home');
    expect(pageOf('/', '?seed=123&floor=hcz')).toBe('map');
    expect(pageOf('/', '?seed=12ab')).toBe('map');
    expect(pageOf('/seed/123')).toBe('map');
    expect(pageOf('/seeds')).toBe('seeds');
    expect(pageOf('/seeds/')).toBe('seeds');
    expect(pageOf('/stats')).toBe('stats');
  });

  it('strips the mount path', () => {
    expect(stripBase('/viewer/seed/5', '/viewer')).toBe('/seed/5');
    expect(stripBase('/viewer', '/viewer')).toBe('/');
    expect(stripBase('/seeds', '')).toBe('/seeds');
  });
});
