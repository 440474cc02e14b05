// GET /docs over real HTTP on loopback: the viewer's headers, the viewer's current stylesheet
// (named by its build's manifest, read again after a rebuild), and a whole page without a build.
import express from 'express';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPageRouter } from '../../api/docs-page.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { VIEWER_CSP } from '../../api/viewer-files.ts';

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
    const res = await fetch(`${base}/docs/docs.css`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await res.text()).toContain('.operation');
  });
});
