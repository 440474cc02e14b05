// The https redirect and the client's Host (issue 22, finding 4): with PUBLIC_URL the Location is
// that origin with the request's path and query, whatever Host, X-Forwarded-Host or request target
// the client sent; without it, a host that is no plain host[:port] is 400, never a Location.
// Requests are raw HTTP/1.1 over loopback, so the Host header and the target are exactly ours.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtime/config.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';

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
