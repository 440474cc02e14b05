import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PluginOutdatedSchema } from '../../api/schemas.ts';
import { isBelowMinimum } from '../../store/index.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { advanceClock, MINUTE } from '../support/clock.ts';
import { newKey, type TestKey } from '../support/keys.ts';
import { sendReport, validReport } from '../support/requests.ts';

// Spec 4.5 and 9.3: a plugin report whose pluginVersion is below the operator's minimum is
// refused with 426 `plugin_outdated` (+ minimum, downloadUrl); without a minimum 426 never occurs.

let api: TestApi;
let key: TestKey;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  await advanceClock(api, MINUTE);
  await api.store.clearMinimumVersion();
  key = await newKey(api, 'http');
});

const withVersion = (pluginVersion?: string, extra: Record<string, unknown> = {}) =>
  sendReport(api, key.credential, validReport({ event: 'round_end', ...extra, pluginVersion }));

describe('POST /plugin/v1/report with a minimum plugin version', () => {
  it('below the minimum → 426 plugin_outdated with minimum and downloadUrl, "" while no release is known', async () => {
    await api.store.setMinimumVersion('1.2.0');
    for (const version of ['1.1.0', '1.1.9', '0.9.0', '1.0.0']) {
      const res = await withVersion(version);
      expect(res.status, version).toBe(426);
      expect(PluginOutdatedSchema.strict().parse(res.body)).toEqual({
        error: 'plugin_outdated',
        minimum: '1.2.0',
        // The release host not read yet (docs/api.md: a string, empty when unknown).
        downloadUrl: '',
      });
    }
  });

  it('the 426 names the latest release page once the release host is known', async () => {
    const page = 'https://releases.example.test/x/y/releases/tag/v1.3.0';
    await api.store.saveLatestRelease({ latest: '1.3.0', downloadUrl: page });
    await api.store.setMinimumVersion('1.2.0');
    const res = await withVersion('1.1.0');
    expect(res.status).toBe(426);
    expect(res.body).toEqual({ error: 'plugin_outdated', minimum: '1.2.0', downloadUrl: page });
  });

  it.each(['1.2.0', '1.2.1', '1.10.0', '2.0.0'])('%s (not below 1.2.0) → 200', async (version) => {
    await api.store.setMinimumVersion('1.2.0');
    const res = await withVersion(version);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
  });

  // The report's check runs in Lua (includes/plugin-minimum.lua), the claim's in TypeScript
  // (isBelowMinimum): both must judge every version alike.
  it.each([
    ['1.2.0', '1.2.0'],
    ['v1.2.0', '1.2.0'],
    [' 1.2.0 ', '1.2.0'],
    ['1.2.0-beta', '1.2.0'],
    ['1.2.0+build', '1.2.0'],
    ['1.2.0.7', '1.2.0'],
    ['1.1.99', '1.2.0'],
    ['1.10.0', '1.9.0'],
    ['01.2.0', '1.2.0'],
    ['1.2', '1.2.0'],
    ['latest', '1.2.0'],
    ['2.0.0-rc1', '1.9.9'],
    ['1.2.0', '1.2.1'],
  ])('report of %s under minimum %s: 426 exactly when isBelowMinimum says so', async (version, minimum) => {
    await api.store.setMinimumVersion(minimum);
    const res = await withVersion(version);
    expect(res.status).toBe(isBelowMinimum(version, minimum) ? 426 : 200);
  });

  it('a report without pluginVersion → 200 (older plugins send none)', async () => {
    await api.store.setMinimumVersion('1.2.0');
    expect((await withVersion(undefined)).status).toBe(200);
  });

  it('clearing the minimum → 200 again', async () => {
    await api.store.setMinimumVersion('1.2.0');
    expect((await withVersion('1.1.0')).status).toBe(426);
    await api.store.clearMinimumVersion();
    expect((await withVersion('1.1.0')).status).toBe(200);
  });

  it('without a minimum even a very old version → 200', async () => {
    expect((await withVersion('0.0.1')).status).toBe(200);
  });

  it('a refused report opens no window', async () => {
    await api.store.setMinimumVersion('1.2.0');
    const refused = await withVersion('1.1.0', { event: 'round_start', seed: 5151 });
    expect(refused.status).toBe(426);
    const now = await advanceClock(api, MINUTE);
    const accepted = await withVersion('1.2.0', { event: 'round_start', seed: 5151 });
    expect(accepted.status).toBe(200);
    // Opened now, by this report; not a minute ago by the refused one.
    expect(accepted.body.blockedUntil).toBe(new Date(now + 20 * MINUTE).toISOString());
  });

  it('POST /v1/servers/report (own clients, no plugin) is not subject to the minimum', async () => {
    await api.store.setMinimumVersion('1.2.0');
    const res = await sendReport(
      api,
      key.credential,
      validReport({ event: 'round_end', pluginVersion: '1.0.0' }),
      {
        path: '/v1/servers/report',
      },
    );
    expect(res.status).toBe(200);
  });
});
