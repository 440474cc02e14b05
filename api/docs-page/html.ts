// The HTML pieces the API reference page (api/docs-page.ts) is written with.

export const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Descriptions mark names with backticks (\x60), as Markdown does. */
export const inline = (text: string) => escape(text).replace(/\x60([^\x60]+)\x60/g, '<code>$1</code>');

export const code = (text: string) => `<code>${escape(text)}</code>`;

export const json = (value: unknown) => `<pre><code>${escape(JSON.stringify(value, null, 2))}</code></pre>`;

/** The id of an operation's section. */
export const anchor = (method: string, path: string) =>
  `${method}-${path}`
    .replace(/[{}]/g, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '');

/** A link to an operation's section, named by its method and path. */
export const operationLink = ({ method, path }: { method: string; path: string }) =>
  `<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a>`;

/** A table with a caption; none at all without rows. */
export const table = (caption: string, head: string[], rows: string[][]) =>
  rows.length === 0
    ? ''
    : `<table><caption>${caption}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')}</tbody>
</table>`;

/** Table cells joined with `; `, the empty ones left out. */
export const joined = (cells: string[]) => cells.filter(Boolean).join('; ');
