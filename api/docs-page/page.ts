import { PAGE_META } from '../../viewer/index-html.ts';
import { documentOperations } from '../openapi.ts';
import type { OpenApiDocument } from '../openapi-types.ts';
import { anchor, escape } from './html.ts';
import { operationHtml, type Listed } from './operation.ts';
import { SchemaReader } from './schema-reader.ts';
import { authSection, clientBehaviourSection, errorsSection, limitsSection } from './sections.ts';

/** Where the page names the viewer's stylesheet, which changes with each build (docs-page.ts). */
export const VIEWER_STYLES = '__VIEWER_STYLES__';

const DESCRIPTION =
  'Reference of the seedblock API (v1): every operation with its parameters, body and answer ' +
  'fields, auth, limits, errors, client behaviour and curl examples.';

function head(): string {
  return `<head>
${PAGE_META}
<title>seedblock API reference</title>
<meta name="description" content="${escape(DESCRIPTION)}" />
<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
${VIEWER_STYLES}
<link rel="stylesheet" href="/docs/docs.css" />
</head>`;
}

function introduction(document: OpenApiDocument, prefix: string): string {
  return `<h1>${escape(document.info.description)}</h1>
<p>Every operation with its parameters, body and answer fields, a curl line and examples, made from
the OpenAPI 3.1 document tools read:
<a href="${escape(prefix)}/openapi.json"><code>${escape(prefix)}/openapi.json</code></a>. Bodies are JSON
(UTF-8, at most 16 KiB) both ways and never coerced (<code>"1"</code> is not a number); error bodies are
<code>{"error": "…"}</code>. In the curl lines set <code>BASE</code> to the service's address, e.g.
<code>BASE=https://seedblock.example</code>.</p>`;
}

function contents(operations: Listed[]): string {
  const links = operations.map(
    ({ method, path }) =>
      `<li><a href="#${anchor(method, path)}"><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></a></li>`,
  );
  return `<nav aria-label="Contents"><ul>
<li><a href="#auth">Authentication</a></li>
<li><a href="#limits">Limits</a></li>
<li><a href="#errors">Errors</a></li>
<li><a href="#client-behaviour">Client behaviour</a></li>
${links.join('\n')}
</ul></nav>`;
}

/**
 * GET /docs: the OpenAPI document as a reference for people, rendered on the server from the same
 * object /openapi.json serves (the OpenAPI module builds it once): per operation its parameters,
 * body and answer fields (name, type, required, constraints) read from the document's JSON
 * Schemas, a copyable curl line and examples; above them auth, limits, the error catalogue and
 * how a client should behave. Made once per process: the document does not change while it runs.
 */
export function docsPageHtml(document: OpenApiDocument): string {
  const prefix = document.servers[0]!.url.replace(/\/$/, '');
  const read = new SchemaReader(document);
  const operations: Listed[] = documentOperations(document).map(({ method, path, op, atRoot }) => ({
    method,
    path,
    op,
    url: `${atRoot ? '' : prefix}${path}`,
  }));
  return `<!doctype html>
<html lang="en">
${head()}
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><a class="brand" href="/">seedblock <small>API reference</small></a></header>
<main id="main">
${introduction(document, prefix)}
${contents(operations)}
${authSection(document, operations)}
${limitsSection(operations)}
${errorsSection(operations, read)}
${clientBehaviourSection()}
${operations.map((listed) => operationHtml(listed, read)).join('\n')}
</main>
</body>
</html>
`;
}
