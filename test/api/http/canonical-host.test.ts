// The https redirect and the client's Host (issue 22, finding 4): with PUBLIC_URL the Location is
// that origin with the request's path and query, whatever Host, X-Forwarded-Host or request target
// the client sent; without it, a host that is no plain host[:port] is 400, never a Location.
// A seed page's share tags (issue 34, finding 10: `Host: evil.example` was written into og:image,
// HTTP/1.0 without Host gave `http://undefined/…`) take their origin the same way: PUBLIC_URL when
// set, else a host that passes the same check, else they name no absolute URL at all.
// Requests are raw HTTP over loopback, so the Host header and the target are exactly ours.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtime/config.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { rawConnection } from '../../support/raw-http.ts';

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** One request with this exact target and these headers, as a proxy asked over plain http. */
function viaPlainHttp(api: TestApi, target: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: api.port,
        path: target,
        setHost: false,
        headers: { 'x-forwarded-proto': 'http', ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const SEED = 12_345;

/** A seed page as a crawler gets it, asked for with exactly `head`, and a reader of its meta tags. */
async function seedPage(api: TestApi, head: string) {
  const connection = await rawConnection(api.port);
  const answer = await connection.request(head);
  connection.destroy();
  expect(answer.status).toBe(200);
  const html = answer.body;
  const tag = (name: string) =>
    new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)" />`).exec(html)?.[1];
  expect(tag('og:title')).toContain(String(SEED)); // the seed may be shown: the page names it
  return { html, tag };
}

const FORGED: [string, string, Record<string, string>][] = [
  [
    'X-Forwarded-Host good.com@evil.com',
    '/x?y=1',
    { host: 'good.com', 'x-forwarded-host': 'good.com@evil.com' },
  ],
  ['Host good.com@evil.com', '/x?y=1', { host: 'good.com@evil.com' }],
  ['an absolute-form target', 'http://evil.com/x?y=1', { host: 'good.com' }],
  ['an absolute-form target with user info', 'http://good.com@evil.com/x?y=1', { host: 'good.com' }],
  ['X-Forwarded-Host with a path', '/x?y=1', { host: 'good.com', 'x-forwarded-host': 'evil.com/x' }],
];

describe('with PUBLIC_URL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ PUBLIC_URL: 'https://seedblock.example.test' });
  });
  afterAll(async () => {
    await api.close();
  });

  it.each(FORGED)('%s: 301 to PUBLIC_URL with the path and query', async (_name, target, headers) => {
    const res = await viaPlainHttp(api, target, headers);
    expect(res.status).toBe(301);
    expect(res.location).toBe('https://seedblock.example.test/x?y=1');
  });

  it.each([
    ['Host: evil.example', `GET /?seed=${SEED} HTTP/1.1\r\nHost: evil.example`],
    [
      'X-Forwarded-Host: evil.example',
      `GET /seed/${SEED} HTTP/1.1\r\nHost: a.test\r\nX-Forwarded-Host: evil.example`,
    ],
    ['HTTP/1.0 without Host', `GET /?seed=${SEED} HTTP/1.0`],
  ])("%s: a seed page's share tags name PUBLIC_URL, never the client's host", async (_name, head) => {
    const { html, tag } = await seedPage(api, head);
    expect(tag('og:image')).toBe(`https://seedblock.example.test/seed/${SEED}/preview.png`);
    expect(tag('twitter:image')).toBe(tag('og:image'));
    expect(tag('og:url')).toBe(`https://seedblock.example.test/seed/${SEED}`);
    expect(html).not.toContain('evil.example');
  });
});

describe('without PUBLIC_URL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it.each([
    ['X-Forwarded-Host good.com@evil.com', { host: 'good.com', 'x-forwarded-host': 'good.com@evil.com' }],
    ['Host good.com@evil.com', { host: 'good.com@evil.com' }],
    ['X-Forwarded-Host with a path', { host: 'good.com', 'x-forwarded-host': 'evil.com/x' }],
    ['Host with a scheme', { host: 'http://evil.com' }],
  ])('%s: 400 with an error body, no Location', async (_name, headers) => {
    const res = await viaPlainHttp(api, '/x', headers);
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(JSON.parse(res.body)).toEqual({ error: 'invalid request' });
  });

  it('an absolute-form target keeps only its path and query; the host is the plain Host', async () => {
    const res = await viaPlainHttp(api, 'http://evil.com/x?y=1', { host: 'good.com:8443' });
    expect(res.status).toBe(301);
    expect(res.location).toBe('https://good.com/x?y=1');
  });

  it("without PUBLIC_URL a seed page's share tags name the address the connection reached, never a name the client chose", async () => {
    const ours = await seedPage(api, `GET /?seed=${SEED} HTTP/1.1\r\nHost: 127.0.0.1:${api.port}`);
    expect(ours.tag('og:image')).toBe(`http://127.0.0.1:${api.port}/seed/${SEED}/preview.png`);
    const local = await seedPage(api, `GET /seed/${SEED} HTTP/1.1\r\nHost: localhost:${api.port}`);
    expect(local.tag('og:url')).toBe(`http://localhost:${api.port}/seed/${SEED}`);
    for (const head of [
      `GET /?seed=${SEED} HTTP/1.1\r\nHost: evil.example`,
      `GET /?seed=${SEED} HTTP/1.1\r\nHost: 203.0.113.9:${api.port}`,
      `GET /seed/${SEED} HTTP/1.1\r\nHost: a.test\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https`,
    ]) {
      const { html, tag } = await seedPage(api, head);
      expect(tag('og:image'), head).toBeUndefined();
      expect(tag('og:url'), head).toBeUndefined();
      expect(html, head).not.toMatch(/evil\.example|203\.0\.113\.9/);
    }
  });

  it.each([
    ['Host good.com@evil.com', 'Host: good.com@evil.com'],
    ['Host with a scheme', 'Host: http://evil.com'],
    ['X-Forwarded-Host with a path', 'Host: good.com\r\nX-Forwarded-Host: evil.com/x'],
  ])("%s: a seed page's share tags name no absolute URL", async (_name, headers) => {
    const { html, tag } = await seedPage(api, `GET /?seed=${SEED} HTTP/1.1\r\n${headers}`);
    expect(tag('og:image')).toBeUndefined();
    expect(tag('og:url')).toBeUndefined();
    expect(tag('twitter:card')).toBe('summary');
    expect(html).not.toContain('evil.com');
  });

  it("HTTP/1.0 without Host: a seed page's share tags name no absolute URL (no http://undefined)", async () => {
    const { html, tag } = await seedPage(api, `GET /?seed=${SEED} HTTP/1.0`);
    expect(tag('og:image')).toBeUndefined();
    expect(html).not.toContain('undefined');
  });

  it('a plain host, an IPv4 and a bracketed IPv6 literal are redirected to', async () => {
    for (const [host, origin] of [
      ['seedblock.example.test', 'https://seedblock.example.test'],
      ['192.0.2.1:80', 'https://192.0.2.1'],
      ['[2001:db8::1]:80', 'https://[2001:db8::1]'],
    ]) {
      const res = await viaPlainHttp(api, '/x', { host: host! });
      expect(res.location).toBe(`${origin}/x`);
    }
  });
});

describe('PUBLIC_URL is validated at start-up', () => {
  it.each([
    'http://seedblock.example.test',
    'https://seedblock.example.test/api',
    'https://user@seedblock.example.test',
    'https://seedblock.example.test/?q=1',
    'seedblock.example.test',
  ])('%s is refused, naming PUBLIC_URL', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/PUBLIC_URL/);
  });

  it('an origin is kept without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Seedblock.Example.test:8443/' }).PUBLIC_URL).toBe(
      'https://seedblock.example.test:8443',
    );
  });
});
