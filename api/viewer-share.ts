// The page title, description and link-preview tags (Open Graph, Twitter) of the viewer's shell,
// rendered by the server because chat apps and crawlers read them without running the script.
// A seed page (/seed/N or /?seed=N) names its seed, and shows its map's picture, only once the
// server knows the seed may be shown.

import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from './maps/preview-image.ts';

const SITE = 'seedblock – SCP: SL map viewer';
const GENERIC = 'Facility map of SCP: Secret Laboratory for any seed.';

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A seed the page may name, with the absolute URLs of its page and picture, or null when the page
 * knows no origin to write them with (http/public-origin.ts): then it names none.
 */
export interface SharedSeed {
  seed: number;
  urls: { page: string; image: string } | null;
}

/** The head tags of a page; `shared` only for a seed that may be shown now. */
export function shareTags(shared?: SharedSeed): string {
  const seed = shared?.seed;
  const title = seed === undefined ? SITE : `Seed ${seed} – SCP: SL map`;
  const description =
    seed === undefined
      ? GENERIC
      : `Facility map of SCP: Secret Laboratory seed ${seed}: every floor with its rooms, heavy doors, tesla gates and item and structure spawns.`;
  const t = escapeHtml(title);
  const d = escapeHtml(description);
  const urls = shared?.urls;
  const picture = urls
    ? [
        `<meta property="og:url" content="${escapeHtml(urls.page)}" />`,
        `<meta property="og:image" content="${escapeHtml(urls.image)}" />`,
        `<meta property="og:image:type" content="image/png" />`,
        `<meta property="og:image:width" content="${PREVIEW_WIDTH}" />`,
        `<meta property="og:image:height" content="${PREVIEW_HEIGHT}" />`,
        `<meta property="og:image:alt" content="${escapeHtml(`Map of seed ${seed}: Light Containment, Heavy Containment and Entrance`)}" />`,
        `<meta name="twitter:image" content="${escapeHtml(urls.image)}" />`,
      ]
    : [];
  return [
    `<title>${t}</title>`,
    `<meta name="description" content="${d}" />`,
    `<meta property="og:site_name" content="seedblock" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${t}" />`,
    `<meta property="og:description" content="${d}" />`,
    ...picture,
    `<meta name="twitter:card" content="${urls ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${t}" />`,
    `<meta name="twitter:description" content="${d}" />`,
  ].join('\n    ');
}
