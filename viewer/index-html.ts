// The page shell written to dist/index.html by the build. The server fills the placeholders per
// request (mount path, API prefix, title and share tags), so one build works under any mount point.

export const BASE_TOKEN = '__VIEWER_BASE__';
export const API_PREFIX_TOKEN = '__API_PREFIX__';
/** The page's title, description and link-preview tags (seed pages name their seed). */
export const SHARE_TOKEN = '<!--__VIEWER_SHARE__-->';

export interface BuiltAssets {
  /** File names inside dist/assets. */
  js: string;
  css: string;
  icon: string;
}

/** The first lines of every page's head, the viewer's and the API reference's (api/docs-page.ts). */
export const PAGE_META = `<meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="dark" />`;

const asset = (name: string): string => `${BASE_TOKEN}/assets/${name}`;

// Both pages share the header, so a 404 still leads back to the map, seeds and stats.
const siteHeader = `<header class="site-header">
      <a class="brand" href="${BASE_TOKEN}/">seedblock <small>SCP: SL map viewer</small></a>
      <nav aria-label="Main">
        <ul>
          <li><a href="${BASE_TOKEN}/" data-nav="map">Map</a></li>
          <li><a href="${BASE_TOKEN}/seeds" data-nav="seeds">Seeds</a></li>
          <li><a href="${BASE_TOKEN}/stats" data-nav="stats">Stats</a></li>
        </ul>
      </nav>
    </header>`;

/** One HTML document of the viewer: the shared head (icon, stylesheet) around a page's own parts. */
function htmlPage(assets: BuiltAssets, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    ${PAGE_META}
    ${head}
    <link rel="icon" type="image/svg+xml" href="${asset(assets.icon)}" />
    <link rel="stylesheet" href="${asset(assets.css)}" />
  </head>
  <body>
    ${body}
  </body>
</html>
`;
}

export function indexHtml(assets: BuiltAssets): string {
  return htmlPage(
    assets,
    `${SHARE_TOKEN}
    <meta name="api-prefix" content="${API_PREFIX_TOKEN}" />
    <meta name="viewer-base" content="${BASE_TOKEN}" />
    <script type="module" src="${asset(assets.js)}"></script>`,
    `<a class="skip-link" href="#main">Skip to content</a>
    ${siteHeader}
    <main id="main" tabindex="-1" data-page="" data-state="loading">
      <noscript><p>This viewer needs JavaScript to draw the map.</p></noscript>
    </main>
    <footer class="site-footer">
      <a href="${BASE_TOKEN}/docs">API reference</a>
    </footer>`,
  );
}

/** The page of an unknown path outside the API: no script, just the way back. */
export function notFoundHtml(assets: BuiltAssets): string {
  return htmlPage(
    assets,
    `<meta name="robots" content="noindex" />
    <title>Page not found – seedblock</title>`,
    `${siteHeader}
    <main id="main" class="not-found" data-page="not-found">
      <h1>Page not found</h1>
      <p>There is no page at this address. <a href="${BASE_TOKEN}/">Open the map viewer</a> or pick a seed from <a href="${BASE_TOKEN}/seeds">the seed list</a>.</p>
    </main>`,
  );
}
