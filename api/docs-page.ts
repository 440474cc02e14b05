// GET /docs: the OpenAPI document as a page for people, rendered here on the server from the same
// object /openapi.json serves. Plain HTML with the viewer's built stylesheet and a few rules of its
// own: no script, no third-party host, the viewer's strict Content-Security-Policy.

import express, { type Router } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_DIR } from '../viewer/dist-dir.ts';
import { PAGE_META, type BuiltAssets } from '../viewer/index-html.ts';
import { documentOperations, type openApiDocument } from './openapi.ts';
import { loadOnChange } from './viewer-build.ts';
import { securityHeaders } from './viewer-files.ts';

type Document = ReturnType<typeof openApiDocument>;
interface Parameter {
  name: string;
  in: string;
  description?: string;
  example: unknown;
}
interface Answer {
  description: string;
  headers?: Record<string, unknown>;
  content?: { 'application/json': { example?: unknown } };
}
interface Operation {
  summary: string;
  security?: Record<string, unknown>[];
  parameters: Parameter[];
  requestBody?: { content: { 'application/json': { example: unknown } } };
  responses: Record<string, Answer>;
}

const STYLESHEET = readFileSync(new URL('./docs-page.css', import.meta.url), 'utf8');
/** Where the page names the viewer's stylesheet, which changes with each build. */
const VIEWER_STYLES = '__VIEWER_STYLES__';
const AUTH_HEADER: Record<string, string> = {
  serverKey: 'Authorization: Bearer sbk_… (a server key)',
  adminToken: 'Authorization: Bearer <ADMIN_TOKEN>',
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Descriptions mark names with backticks, as Markdown does. */
const inline = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const json = (value: unknown) => `<pre><code>${escape(JSON.stringify(value, null, 2))}</code></pre>`;
const anchor = (method: string, path: string) =>
  `${method}-${path}`
    .replace(/[{}]/g, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '');

function requestExample(prefix: string, method: string, path: string, op: Operation): string {
  const values = new Map(op.parameters.map((p) => [p.name, String(p.example)]));
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name) ?? name);
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => `${p.name}=${String(p.example)}`)
    .join('&');
  const lines = [`${method.toUpperCase()} ${prefix}${filled}${query ? `?${query}` : ''}`];
  for (const scheme of op.security ?? []) lines.push(...Object.keys(scheme).map((s) => AUTH_HEADER[s]!));
  const body = op.requestBody?.content['application/json'].example;
  if (body !== undefined) lines.push('Content-Type: application/json', '', JSON.stringify(body, null, 2));
  return `<pre><code>${escape(lines.join('\n'))}</code></pre>`;
}

function answerHtml(status: string, answer: Answer): string {
  const headers = Object.keys(answer.headers ?? {});
  const example = answer.content?.['application/json'].example;
  return `<div class="answer">
<h4><span class="http-status http-status-${status[0]}xx">${status}</span> ${inline(answer.description)}</h4>
${headers.length ? `<p class="headers">Headers: ${headers.map((h) => `<code>${escape(h)}</code>`).join(', ')}</p>` : ''}
${example === undefined ? '' : json(example)}
</div>`;
}

function operationHtml(prefix: string, method: string, path: string, op: Operation): string {
  const params = op.parameters.map(
    (p) =>
      `<li><code>${escape(p.name)}</code> (${escape(p.in)})${p.description ? `: ${inline(p.description)}` : ''}</li>`,
  );
  return `<section class="operation" id="${anchor(method, path)}" data-method="${method}" data-path="${escape(path)}">
<h2><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(prefix + path)}</code></h2>
<p>${inline(op.summary)}</p>
${params.length ? `<h3>Parameters</h3><ul>${params.join('')}</ul>` : ''}
<h3>Request</h3>
${requestExample(prefix, method, path, op)}
<h3>Responses</h3>
${Object.entries(op.responses)
  .map(([status, answer]) => answerHtml(status, answer))
  .join('\n')}
</section>`;
}

/** The page, once per process: the document does not change while it runs. */
export function docsPageHtml(document: Document): string {
  const prefix = document.servers[0]!.url.replace(/\/$/, '');
  const operations = documentOperations(document).map(({ method, path, op, atRoot }) => ({
    method,
    path,
    op: op as Operation,
    prefix: atRoot ? '' : prefix,
  }));
  return `<!doctype html>
<html lang="en">
<head>
${PAGE_META}
<title>seedblock API reference</title>
${VIEWER_STYLES}
<link rel="stylesheet" href="/docs/docs.css" />
</head>
<body>
<header class="site-header"><a class="brand" href="/">seedblock <small>API reference</small></a></header>
<main id="main">
<h1>${escape(document.info.description)}</h1>
<p>Every operation with an example request and its answers. The same document as JSON, for tools:
<a href="${escape(prefix)}/openapi.json"><code>${escape(prefix)}/openapi.json</code></a>. Error bodies are
<code>{"error": "…"}</code>; every 429 carries <code>Retry-After</code> in seconds.</p>
<nav aria-label="Operations"><ul>
${operations
  .map(
    ({ method, path }) =>
      `<li><a href="#${anchor(method, path)}"><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></a></li>`,
  )
  .join('\n')}
</ul></nav>
${operations.map(({ method, path, op, prefix }) => operationHtml(prefix, method, path, op)).join('\n')}
</main>
</body>
</html>
`;
}

/** GET /docs and its stylesheet, outside the API prefix. */
export function docsPageRouter(document: Document, distDir = DIST_DIR): Router {
  const html = docsPageHtml(document);
  const manifestFile = join(distDir, 'manifest.json');
  const manifest = loadOnChange(manifestFile, () => readFileSync(manifestFile, 'utf8'));
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    // Without a viewer build the page is unstyled but whole.
    const built = manifest();
    const css = built === undefined ? '' : (JSON.parse(built) as BuiltAssets).css;
    securityHeaders(res);
    res
      .set('Cache-Control', 'no-cache')
      .type('html')
      .send(html.replace(VIEWER_STYLES, css ? `<link rel="stylesheet" href="/assets/${css}" />` : ''));
  });
  router.get('/docs/docs.css', (_req, res) => {
    securityHeaders(res);
    res.set('Cache-Control', 'public, max-age=300').type('css').send(STYLESHEET);
  });
  return router;
}
