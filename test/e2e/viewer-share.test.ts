// Issue 30, points 2, 3 and 8: link previews with the seed's picture (and none for a seed that
// may not be shown), the home page's ways in, Surface's places and the nearest exit.
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, call } from '../support/http.ts';
import { newKey } from '../support/keys.ts';
import { viewerStack } from '../support/viewer-stack.ts';

const MAIN = 224593721;
const OTHER = 5_300_011;
const WINDOWED = 5_300_012;
const FOREVER = 5_300_013;

const stack = viewerStack({ name: 'share', seeds: [OTHER, MAIN, WINDOWED] });

/** Opens a window on a seed through the plugin API, as a game server's report does. */
async function blockByRound(seed: number): Promise<void> {
  const key = await newKey(stack.api, 'http');
  const report = await call(`${stack.api.base}/plugin/v1/report`, {
    headers: bearer(key.credential),
    body: { event: 'round_start', seed, port: 7777 },
  });
  expect(report.status).toBe(200);
}

beforeAll(async () => {
  await blockByRound(WINDOWED);
  await stack.api.store.addToBlocklist(FOREVER);
});

/** The page shell as a crawler gets it: no script run. */
const shell = async (path: string) => (await fetch(`${stack.api.url}${path}`)).text();
const tag = (html: string, name: string): string | undefined =>
  new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)" />`).exec(html)?.[1];

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('link previews (issue 30.8)', () => {
  it('give /seed/N and /?seed=N a title, a description and the map as a large picture', async () => {
    const images: string[] = [];
    for (const path of [`/seed/${MAIN}`, `/?seed=${MAIN}`, `/?seed=${MAIN}&floor=hcz`]) {
      const html = await shell(path);
      expect(tag(html, 'og:title'), path).toContain(String(MAIN));
      expect(tag(html, 'og:description'), path).toContain(String(MAIN));
      expect(tag(html, 'twitter:card'), path).toBe('summary_large_image');
      const image = tag(html, 'og:image')!;
      expect(image, path).toBe(`${stack.api.url}/seed/${MAIN}/preview.png`);
      expect(tag(html, 'twitter:image')).toBe(image);
      images.push(image);
    }
    const res = await fetch(images[0]!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    // Made once: the same bytes again, and a revalidation confirms them.
    const again = await fetch(images[0]!);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(png);
    const etag = again.headers.get('etag')!;
    expect((await fetch(images[0]!, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Another seed, another picture.
    const other = Buffer.from(
      await (await fetch(`${stack.api.url}/seed/${OTHER}/preview.png`)).arrayBuffer(),
    );
    expect(pngSize(other).width).toBe(1200);
    expect(other.equals(png)).toBe(false);
  });

  it('shows the picture in the browser: it draws the facility', async () => {
    const page = await stack.openPage(`/seed/${MAIN}/preview.png`);
    const size = await page.evaluate(() => {
      const img = document.querySelector('img')!;
      return { w: img.naturalWidth, h: img.naturalHeight };
    });
    expect(size).toEqual({ w: 1200, h: 630 });
  });

  it('names no blocked, permanently blocked or invalid seed, and its picture never answers 200', async () => {
    for (const [seed, status] of [
      [WINDOWED, 403],
      [FOREVER, 403],
    ] as const) {
      for (const path of [`/seed/${seed}`, `/?seed=${seed}`]) {
        const html = await shell(path);
        expect(html, path).not.toContain(String(seed));
        expect(tag(html, 'og:image'), path).toBeUndefined();
        expect(tag(html, 'twitter:card'), path).toBe('summary');
      }
      const res = await fetch(`${stack.api.url}/seed/${seed}/preview.png`);
      expect(res.status, `picture of ${seed}`).toBe(status);
      expect(await res.json()).toMatchObject({ error: 'blocked' });
      // As the map read answers.
      expect((await fetch(`${stack.api.base}/maps/${seed}`)).status).toBe(status);
    }
    for (const bad of ['0', '12ab', '99999999999']) {
      const res = await fetch(`${stack.api.url}/seed/${bad}/preview.png`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toEqual({ error: 'invalid seed' });
      expect(tag(await shell(`/?seed=${bad}`), 'og:image')).toBeUndefined();
    }
  });

  it('stops the picture once a report opens a window on a seed it has made', async () => {
    const url = `${stack.api.url}/seed/${OTHER}/preview.png`;
    expect((await fetch(url)).status).toBe(200);
    await blockByRound(OTHER);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(tag(await shell(`/seed/${OTHER}`), 'og:image')).toBeUndefined();
  });
});
