// GET /docs over real HTTP on loopback: a reference made from the OpenAPI document (field tables
// of every body and answer, auth, limits, the error catalogue, curl lines), compressed as the
// client accepts, with its icon; the viewer's headers, the viewer's current stylesheet (named by
// its build's manifest, read again after a rebuild), and a whole page without a build.
import express from 'express';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPageRouter } from '../../api/docs-page.ts';
import { documentOperations, openApiDocument } from '../../api/openapi.ts';
import { VIEWER_CSP } from '../../api/viewer-files.ts';
import { get } from '../support/http.ts';

let dist: string;
let server: Server;
let base: string;
beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'docs-page-'));
  const app = express().use(docsPageRouter(openApiDocument('/api'), dist));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

const page = async () => {
  const res = await fetch(`${base}/docs`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('content-security-policy')).toBe(VIEWER_CSP);
  return res.text();
};
const viewerStylesheets = (html: string) => [...html.matchAll(/href="\/assets\/([^"]+)"/g)].map((m) => m[1]);

describe('GET /docs', () => {
  it('is a whole page without a viewer build, only unstyled by the viewer', async () => {
    const html = await page();
    expect(viewerStylesheets(html)).toEqual([]);
    expect(html).toContain('data-path="/plugin/v1/report"');
    expect(html).not.toMatch(/<script|style="/);
  });

  it("links the viewer's stylesheet of the current build", async () => {
    const manifest = join(dist, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ js: 'main-A.js', css: 'style-A.css', icon: 'favicon-A.svg' }));
    expect(viewerStylesheets(await page())).toEqual(['style-A.css']);
    // A rebuild while running: the manifest's new content, told by its modification time.
    writeFileSync(manifest, JSON.stringify({ js: 'main-B.js', css: 'style-B.css', icon: 'favicon-B.svg' }));
    const later = new Date(Date.now() + 5_000);
    utimesSync(manifest, later, later);
    expect(viewerStylesheets(await page())).toEqual(['style-B.css']);
  });

  it('serves its own stylesheet', async () => {
    const br = await get(`${base}/docs/docs.css`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.text).toContain('.operation');
    const res = await fetch(`${base}/docs/docs.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await res.text()).toContain('.operation');
  });
});

type Schema = { $ref?: string; properties?: Record<string, unknown>; required?: string[] };
type Op = {
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: { 'application/json': { schema: Schema } } }>;
};

/** The section of one operation, as HTML text. */
function section(html: string, method: string, path: string): string {
  const start = html.indexOf(`data-method="${method}" data-path="${path}"`);
  expect(start, `${method} ${path}`).toBeGreaterThan(0);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}
/** The rows of the table captioned `caption` in `html`: each row's cells as text. */
function rows(html: string, caption: string): string[][] {
  const start = html.indexOf(`<caption>${caption}</caption>`);
  if (start === -1) return [];
  const body = html.slice(start, html.indexOf('</table>', start));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)]
    .slice(1)
    .map((r) => [...r[1]!.matchAll(/<td>(.*?)<\/td>/gs)].map((c) => c[1]!.replace(/<[^>]+>/g, '')));
}

describe('GET /docs as a reference', () => {
  const doc = openApiDocument('/api');
  const components = doc.components.schemas as Record<string, Schema>;
  const resolve = (s: Schema): Schema => (s.$ref ? components[s.$ref.split('/').pop()!]! : s);

  it('tables every field of every body and every object answer from the document: name, type, required', async () => {
    const html = await page();
    let tables = 0;
    for (const { method, path, op } of documentOperations(doc)) {
      const { requestBody, responses } = op as Op;
      const sectionHtml = section(html, method, path);
      const checks: [string, Schema][] = [];
      if (requestBody) checks.push(['Body fields', requestBody.content['application/json'].schema]);
      for (const [status, answer] of Object.entries(responses)) {
        const schema = answer.content?.['application/json'].schema;
        if (schema) checks.push([`Fields of ${status}`, schema]);
      }
      for (const [caption, schema] of checks) {
        const object = resolve(schema);
        if (!object.properties) continue;
        const table = rows(sectionHtml, caption);
        expect(table.length, `${method} ${path} ${caption}`).toBeGreaterThan(0);
        for (const name of Object.keys(object.properties)) {
          const row = table.find((r) => r[0] === name);
          expect(row, `${method} ${path} ${caption} ${name}`).toBeDefined();
          expect(row![2]).toBe(object.required?.includes(name) ? 'yes' : 'no');
        }
        tables++;
      }
    }
    expect(tables).toBeGreaterThan(20);

    // Types and constraints as the schemas state them.
    const report = rows(section(html, 'post', '/plugin/v1/report'), 'Body fields');
    expect(report.find((r) => r[0] === 'seed')).toEqual(['seed', 'integer', 'yes', '1..2147483647']);
    expect(report.find((r) => r[0] === 'event')?.[3]).toBe('one of round_start, round_end, periodic');
    expect(report.find((r) => r[0] === 'roundStartedAt')?.slice(0, 3)).toEqual([
      'roundStartedAt',
      'string (date-time)',
      'no',
    ]);
    const accepted = rows(section(html, 'post', '/plugin/v1/report'), 'Fields of 200');
    expect(accepted.find((r) => r[0] === 'reason')?.[3]).toContain('not_open');
    // Nested fields by their path.
    const map = rows(section(html, 'get', '/maps/{seed}'), 'Fields of 200');
    expect(map.map((r) => r[0])).toEqual(expect.arrayContaining(['rooms', 'rooms[].name', 'rooms[].zone']));
    const seeds = rows(section(html, 'get', '/seeds'), 'Parameters');
    expect(seeds.find((r) => r[0] === 'limit')?.[4]).toContain('default 200');
  });

  it('states auth, limits, every error string of the document, client behaviour and a curl line per operation', async () => {
    const html = await page();
    expect(rows(html, 'Security schemes').map((r) => r[0])).toEqual(['serverKey', 'adminToken']);
    expect(rows(html, 'Limits per operation').length).toBeGreaterThanOrEqual(8);
    const errors = rows(html, 'Error answers').map(([status, error]) => `${status} ${error}`);
    for (const expected of [
      '400 invalid request',
      '401 invalid credential',
      '429 rate limited',
      '503 db unavailable',
    ])
      expect(errors).toContain(expected);
    expect(html).toContain('id="client-behaviour"');
    for (const { method, path } of documentOperations(doc))
      expect(section(html, method, path)).toMatch(/<pre class="curl"><code>curl -s/);
    expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
  });

  it('is sent br or gzip as the client accepts, identity otherwise, and varies by Accept-Encoding', async () => {
    const plain = await get(`${base}/docs`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const coding of ['br', 'gzip']) {
      const res = await get(`${base}/docs`, { headers: { 'accept-encoding': coding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(res.raw.length).toBeLessThan(plain.raw.length / 4);
      expect(res.text).toBe(plain.text);
    }
  });

  it('links its icon, and /favicon.ico answers too', async () => {
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(await page())?.[1];
    expect(href).toBeDefined();
    for (const path of [href!, '/favicon.ico']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toContain('<svg');
    }
  });
});
