// The page shell written to dist/index.html by the build. The server fills the two placeholders
// per request (mount path and API prefix), so one build works under any mount point.

export const BASE_TOKEN = '__VIEWER_BASE__';
export const API_PREFIX_TOKEN = '__API_PREFIX__';

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

export function indexHtml(assets: BuiltAssets): string {
  const asset = (name: string): string => `${BASE_TOKEN}/assets/${name}`;
  return `<!doctype html>
<html lang="en">
  <head>
    ${PAGE_META}
    <meta name="description" content="Facility map of SCP: Secret Laboratory for any seed." />
    <meta name="api-prefix" content="${API_PREFIX_TOKEN}" />
    <meta name="viewer-base" content="${BASE_TOKEN}" />
    <title>seedblock – SCP: SL map viewer</title>
    <link rel="icon" type="image/svg+xml" href="${asset(assets.icon)}" />
    <link rel="stylesheet" href="${asset(assets.css)}" />
    <script type="module" src="${asset(assets.js)}"></script>
  </head>
  <body>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class="site-header">
      <a class="brand" href="${BASE_TOKEN}/">seedblock <small>SCP: SL map viewer</small></a>
      <nav aria-label="Main">
        <ul>
          <li><a href="${BASE_TOKEN}/" data-nav="map">Map</a></li>
          <li><a href="${BASE_TOKEN}/seeds" data-nav="seeds">Seeds</a></li>
          <li><a href="${BASE_TOKEN}/stats" data-nav="stats">Stats</a></li>
        </ul>
      </nav>
    </header>
    <main id="main" tabindex="-1" data-page="" data-state="loading">
      <noscript><p>This viewer needs JavaScript to draw the map.</p></noscript>
    </main>
    <footer class="site-footer">
      <a href="${BASE_TOKEN}/docs">API reference</a>
    </footer>
  </body>
</html>
`;
}
