import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBelowMinimum, SemverSchema, type Store } from '../../store/index.ts';
import { openTestStore } from '../support/test-store.ts';

// Spec 2.9 and 9.3: minimum is an x.y.z set by the operator; a pluginVersion below it is refused.
// Versions compare part by part as numbers (1.10.0 is above 1.2.0).

describe('isBelowMinimum', () => {
  it.each([
    ['1.1.0', '1.2.0', true],
    ['1.1.9', '1.2.0', true],
    ['0.9.0', '1.0.0', true],
    ['1.2.0', '1.2.1', true],
    ['1.9.9', '1.10.0', true],
    ['9.99.99', '10.0.0', true],
    ['1.2.0', '1.2.0', false],
    ['1.2.1', '1.2.0', false],
    ['1.10.0', '1.2.0', false],
    ['1.3.0', '1.2.9', false],
    ['2.0.0', '1.99.99', false],
    ['10.0.0', '9.0.0', false],
  ])('%s below %s → %s', (version, minimum, below) => {
    expect(isBelowMinimum(version, minimum)).toBe(below);
  });

  it('reads a leading "v" and surrounding spaces', () => {
    expect(isBelowMinimum('v1.2.0', '1.2.0')).toBe(false);
    expect(isBelowMinimum('v1.1.0', '1.2.0')).toBe(true);
    expect(isBelowMinimum(' 1.2.0 ', '1.2.0')).toBe(false);
  });

  it('a pre-release comes before its release (documented)', () => {
    expect(isBelowMinimum('1.2.0-beta.1', '1.2.0')).toBe(true);
    expect(isBelowMinimum('1.2.0-beta.1', '1.1.0')).toBe(false);
    expect(isBelowMinimum('1.3.0-rc1', '1.2.0')).toBe(false);
  });

  it('an unparsable version is below every minimum (documented); an unparsable minimum refuses none', () => {
    for (const version of ['banana', '', '1.2', '1', 'x.y.z']) {
      expect(isBelowMinimum(version, '1.0.0'), version).toBe(true);
    }
    expect(isBelowMinimum('0.0.1', 'banana')).toBe(false);
  });

  it('is a strict order: never below itself, and of two different versions exactly one is below', () => {
    const versions = ['0.0.1', '0.1.0', '1.0.0', '1.1.0', '1.2.0', '1.2.1', '1.10.0', '2.0.0', '10.0.0'];
    for (const [i, a] of versions.entries()) {
      expect(isBelowMinimum(a, a)).toBe(false);
      for (const [j, b] of versions.entries()) {
        if (i === j) continue;
        expect(isBelowMinimum(a, b), `${a} < ${b}`).toBe(i < j);
      }
    }
  });
});

describe('SemverSchema (the operator minimum)', () => {
  it.each(['1.2.0', '0.0.1', '10.20.30'])('accepts %s', (v) => {
    expect(SemverSchema.safeParse(v).success).toBe(true);
  });
  it.each(['banana', '1.2', 'v1.2.0', '1.2.0-beta', ' 1.2.0', '1.2.0.0', ''])('refuses %s', (v) => {
    expect(SemverSchema.safeParse(v).success).toBe(false);
  });
});

describe('version info in the store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore({ name: 'test' });
  });
  afterAll(async () => {
    await store.close();
  });

  it('starts unknown; minimum and latest release are kept apart; clearing drops only the minimum', async () => {
    expect(await store.getVersionInfo()).toEqual({ latest: null, minimum: null, downloadUrl: null });
    expect(await store.setMinimumVersion('1.2.0')).toEqual({
      latest: null,
      minimum: '1.2.0',
      downloadUrl: null,
    });
    await store.saveLatestRelease({ latest: '1.3.0', downloadUrl: 'https://releases.example.test/v1.3.0' });
    expect(await store.getVersionInfo()).toEqual({
      latest: '1.3.0',
      minimum: '1.2.0',
      downloadUrl: 'https://releases.example.test/v1.3.0',
    });
    expect(await store.clearMinimumVersion()).toEqual({
      latest: '1.3.0',
      minimum: null,
      downloadUrl: 'https://releases.example.test/v1.3.0',
    });
  });

  it('refuses a minimum that is not x.y.z and keeps the one set', async () => {
    await store.setMinimumVersion('1.4.0');
    await expect(store.setMinimumVersion('banana')).rejects.toThrow();
    expect((await store.getVersionInfo()).minimum).toBe('1.4.0');
  });
});
