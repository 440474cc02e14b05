import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VersionInfoSchema } from '../../api/schemas.ts';
import { newCredential } from '../../store/credentials.ts';
import { startTestApi, testPrefix, type TestApi } from '../support/api.ts';
import { sendReport, validReport } from '../support/requests.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';
import { send } from '../support/http.ts';

// Spec 2.9 and 4.6: GET /plugin/v1/version, no auth, 200 with `Cache-Control: public,
// max-age=300`, nulls for what is unknown, never a 500. `latest`/`downloadUrl` come from the
// release host (RELEASES_URL, GitHub's latest-release JSON), mocked here with msw: the API runs in
// this process, so msw sees its fetch and nothing leaves the machine.

const RELEASES_URL = 'https://releases.example.test/repos/x/y/releases/latest';
const PAGE = 'https://releases.example.test/x/y/releases/tag/v1.3.0';

/** The fields of GitHub's "get the latest release" answer, as the release host sends them. */
const githubRelease = (tag: string, htmlUrl: string) => ({
  url: 'https://releases.example.test/repos/x/y/releases/1',
  html_url: htmlUrl,
  id: 1,
  tag_name: tag,
  target_commitish: 'main',
  name: `Seedblock plugin ${tag}`,
  draft: false,
  prerelease: false,
  created_at: '2026-02-28T10:00:00Z',
  published_at: '2026-02-28T10:05:00Z',
  assets: [],
  body: 'Changes.',
});

let releaseHostCalls = 0;
const mockServer = setupServer(
  // Our own calls to the API under test go to loopback for real.
  http.all(/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d+)?\//, () => passthrough()),
);
mockServer.events.on('request:start', ({ request }) => {
  if (request.url === RELEASES_URL) releaseHostCalls++;
});
const releaseHost = (answer: () => Response) => mockServer.use(http.get(RELEASES_URL, answer));

beforeAll(() => mockServer.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  mockServer.resetHandlers();
  releaseHostCalls = 0;
});
afterAll(() => mockServer.close());

const open: TestApi[] = [];
async function apiWith(overrides: Record<string, string> = {}): Promise<TestApi> {
  const api = await startTestApi(overrides);
  open.push(api);
  await api.ready;
  return api;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((a) => a.close()));
});

async function getVersion(api: TestApi) {
  const res = await send(`${api.base}/plugin/v1/version`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return VersionInfoSchema.strict().parse(res.body);
}

describe('GET /plugin/v1/version', () => {
  it('with nothing known: 200, every field null, cached 5 minutes', async () => {
    const api = await apiWith();
    expect(await getVersion(api)).toEqual({ latest: null, minimum: null, downloadUrl: null });
  });

  it('needs no auth, and ignores a bogus one', async () => {
    const api = await apiWith();
    const res = await send(`${api.base}/plugin/v1/version`, {
      headers: { authorization: 'Bearer nonsense' },
    });
    expect(res.status).toBe(200);
  });

  it('shows the operator minimum; clearing it shows null again', async () => {
    const api = await apiWith();
    await api.store.setMinimumVersion('1.2.0');
    expect((await getVersion(api)).minimum).toBe('1.2.0');
    await api.store.clearMinimumVersion();
    expect((await getVersion(api)).minimum).toBeNull();
  });

  it('reads the latest release from the release host at start: latest 1.3.0 and its page', async () => {
    releaseHost(() => HttpResponse.json(githubRelease('v1.3.0', PAGE)));
    const api = await apiWith({ RELEASES_URL });
    expect(releaseHostCalls).toBe(1);
    expect(await getVersion(api)).toEqual({ latest: '1.3.0', minimum: null, downloadUrl: PAGE });
  });

  it('a tag without the "v" is read the same', async () => {
    releaseHost(() => HttpResponse.json(githubRelease('1.4.2', PAGE)));
    const api = await apiWith({ RELEASES_URL });
    expect((await getVersion(api)).latest).toBe('1.4.2');
  });

  const BAD_ANSWERS: [string, () => Response][] = [
    ['500', () => HttpResponse.json({ message: 'Server Error' }, { status: 500 })],
    ['404', () => HttpResponse.json({ message: 'Not Found' }, { status: 404 })],
    ['HTML instead of JSON', () => HttpResponse.html('<html><body>garbage</body></html>')],
    [
      'truncated JSON',
      () => new HttpResponse('{"tag_name":"v9.9', { headers: { 'content-type': 'application/json' } }),
    ],
    ['JSON without tag_name', () => HttpResponse.json({ html_url: PAGE })],
    ['a tag that is not a version', () => HttpResponse.json(githubRelease('nightly', PAGE))],
    ['html_url that is not a URL', () => HttpResponse.json(githubRelease('v9.9.9', 'not a url'))],
    ['a network error', () => HttpResponse.error()],
  ];

  it.each(BAD_ANSWERS)('the release host answering %s keeps what is stored', async (_name, answer) => {
    const prefix = testPrefix();
    releaseHost(() => HttpResponse.json(githubRelease('v1.3.0', PAGE)));
    const first = await apiWith({ RELEASES_URL, REDIS_PREFIX: prefix });
    expect((await getVersion(first)).latest).toBe('1.3.0');

    // A later process (or poll) meets a broken release host.
    mockServer.resetHandlers();
    releaseHost(answer);
    releaseHostCalls = 0;
    const later = await apiWith({ RELEASES_URL, REDIS_PREFIX: prefix });
    expect(releaseHostCalls).toBe(1);
    for (const api of [later, first]) {
      expect(await getVersion(api)).toEqual({ latest: '1.3.0', minimum: null, downloadUrl: PAGE });
    }
  });

  it('a broken release host with nothing stored: still 200 with nulls', async () => {
    releaseHost(() => HttpResponse.text('oops', { status: 500 }));
    const api = await apiWith({ RELEASES_URL });
    expect(await getVersion(api)).toEqual({ latest: null, minimum: null, downloadUrl: null });
  });
});

describe.each(['system', 'manual'])('GET /plugin/v1/version with Redis unreachable (%s clock)', (clock) => {
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis({ name: 'version-redis' });
  });
  afterAll(() => redis.stop());

  it('answers 200 with the last known values, while calls that need Redis answer 503', async () => {
    const api = await apiWith({ REDIS_URL: redis.url, SEEDBLOCK_CLOCK: clock });
    await api.store.saveLatestRelease({ latest: '1.3.0', downloadUrl: PAGE });
    await api.store.setMinimumVersion('1.2.0');
    const known = { latest: '1.3.0', minimum: '1.2.0', downloadUrl: PAGE };
    expect(await getVersion(api)).toEqual(known);

    await redis.kill();
    expect(await getVersion(api)).toEqual(known);
    expect(await getVersion(api)).toEqual(known);

    // A report needs Redis: 503 db unavailable, promptly (README: within half a second).
    const started = performance.now();
    const res = await sendReport(api, newCredential(), validReport());
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'db unavailable' });
  });
});
