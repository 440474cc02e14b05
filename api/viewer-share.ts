// The page title, description and link-preview tags (Open Graph, Twitter) of the viewer's shell,
// rendered by the server because chat apps and crawlers read them without running the script.
// A seed page names its seed only once the server knows the seed may be shown.

const SITE = 'seedblock – SCP: SL map viewer';
const GENERIC = 'Facility map of SCP: Secret Laboratory for any seed.';

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The head tags of a page; `seed` only for a seed that may be shown now. */
export function shareTags(seed?: number): string {
  const title = seed === undefined ? SITE : `Seed ${seed} – SCP: SL map`;
  const description =
    seed === undefined
      ? GENERIC
      : `Facility map of SCP: Secret Laboratory seed ${seed}: every floor with its rooms, heavy doors, tesla gates and item and structure spawns.`;
  const t = escapeHtml(title);
  const d = escapeHtml(description);
  return [
    `<title>${t}</title>`,
    `<meta name="description" content="${d}" />`,
    `<meta property="og:site_name" content="seedblock" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:title" content="${t}" />`,
    `<meta property="og:description" content="${d}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:title" content="${t}" />`,
    `<meta name="twitter:description" content="${d}" />`,
  ].join('\n    ');
}
