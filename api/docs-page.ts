// GET /docs: the OpenAPI document as a reference for people, rendered here on the server from the
// same object /openapi.json serves: per operation its parameters, body and answer fields (name,
// type, required, constraints) read from the document's JSON Schemas, a copyable curl line and
// examples; above them auth, limits, the error catalogue and how a client should behave. Plain
// HTML with the viewer's built stylesheet and a few rules of its own: no script, no third-party
// host, the viewer's strict Content-Security-Policy; sent br or gzip as the client accepts.

import express, { type Request, type Response, type Router } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { DIST_DIR } from '../viewer/dist-dir.ts';
import { PAGE_META, type BuiltAssets } from '../viewer/index-html.ts';
import { mapCoding } from './http/content-coding.ts';
import { documentOperations, type openApiDocument } from './openapi.ts';
import { loadOnChange } from './viewer-build.ts';
import { securityHeaders } from './viewer-files.ts';

type Document = ReturnType<typeof openApiDocument>;
/** A JSON Schema as the document writes it (draft 2020-12, `$ref`s into components.schemas). */
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  propertyNames?: Schema;
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example: unknown;
}
interface Header {
  description?: string;
  required?: boolean;
  schema?: Schema;
}
interface Answer {
  description: string;
  headers?: Record<string, Header>;
  content?: { 'application/json': { schema?: Schema; example?: unknown } };
}
interface Operation {
  operationId?: string;
  summary: string;
  description?: string;
  security?: Record<string, unknown>[];
  parameters: Parameter[];
  requestBody?: { content: { 'application/json': { schema?: Schema; example: unknown } } };
  responses: Record<string, Answer>;
}
interface Listed {
  method: string;
  path: string;
  op: Operation;
  /** The path as a client calls it: under the API prefix, or at the root (the probes). */
  url: string;
}

const STYLESHEET = readFileSync(new URL('./docs-page.css', import.meta.url), 'utf8');
/** The viewer's icon, as the image holds it: served with the page whether or not the viewer is built. */
const ICON = readFileSync(new URL('../viewer/favicon.svg', import.meta.url));
/** Where the page names the viewer's stylesheet, which changes with each build. */
const VIEWER_STYLES = '__VIEWER_STYLES__';
const DESCRIPTION =
  'Reference of the seedblock API (v1): every operation with its parameters, body and answer ' +
  'fields, auth, limits, errors, client behaviour and curl examples.';
const AUTH_HEADER: Record<string, string> = {
  serverKey: 'Authorization: Bearer sbk_…',
  adminToken: 'Authorization: Bearer $ADMIN_TOKEN',
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Descriptions mark names with backticks, as Markdown does. */
const inline = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
const code = (text: string) => `<code>${escape(text)}</code>`;
const json = (value: unknown) => `<pre><code>${escape(JSON.stringify(value, null, 2))}</code></pre>`;
const anchor = (method: string, path: string) =>
  `${method}-${path}`
    .replace(/[{}]/g, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '');
const table = (caption: string, head: string[], rows: string[][]) =>
  rows.length === 0
    ? ''
    : `<table><caption>${caption}</caption>
<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>
<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')}</tbody>
</table>`;

/** Reads schemas of one document: `$ref`s resolved into components.schemas. */
function schemaReader(document: Document) {
  const components = (document.components as { schemas?: Record<string, Schema> }).schemas ?? {};
  const refName = (schema: Schema) => schema.$ref?.replace('#/components/schemas/', '');
  const resolve = (schema: Schema): Schema => {
    let s = schema;
    for (let hops = 0; s.$ref && hops < 10; hops++) s = components[refName(s)!] ?? {};
    return s;
  };
  /** The alternatives of a union, null left out; `nullable` when null is one of them. */
  const alternatives = (schema: Schema) => {
    const s = resolve(schema);
    const all = (s.anyOf ?? s.oneOf ?? [s]).map((alt) => ({ alt, resolved: resolve(alt) }));
    const nonNull = all.filter(({ resolved }) => resolved.type !== 'null');
    return { nonNull, nullable: nonNull.length < all.length };
  };

  const typeOf = (schema: Schema): string => {
    const { nonNull, nullable } = alternatives(schema);
    const types = nonNull.map(({ alt, resolved }) => {
      const name = refName(alt);
      if (name && resolved.type === 'object') return name;
      if (resolved.type === 'array') return `array of ${resolved.items ? typeOf(resolved.items) : 'any'}`;
      if (resolved.const !== undefined) return typeof resolved.const;
      const type = Array.isArray(resolved.type) ? resolved.type.join(' or ') : (resolved.type ?? 'any');
      return resolved.format ? `${type} (${resolved.format})` : type;
    });
    return [...new Set(types)].join(' or ') + (nullable ? ' or null' : '');
  };

  const constraints = (schema: Schema): string[] => {
    const out: string[] = [];
    for (const { resolved: s } of alternatives(schema).nonNull) {
      if (s.const !== undefined) out.push(`always ${code(JSON.stringify(s.const))}`);
      if (s.enum) out.push(`one of ${s.enum.map((v) => code(String(v))).join(', ')}`);
      const min = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : `> ${s.exclusiveMinimum}`);
      if (min !== undefined || s.maximum !== undefined)
        out.push(s.maximum === undefined ? `≥ ${min}` : `${min ?? '…'}..${s.maximum}`);
      if (s.minLength !== undefined || s.maxLength !== undefined)
        out.push(`${s.minLength ?? 0}..${s.maxLength ?? '…'} characters`);
      if (s.minItems !== undefined || s.maxItems !== undefined)
        out.push(`${s.minItems ?? 0}..${s.maxItems ?? '…'} items`);
      if (s.default !== undefined) out.push(`default ${code(JSON.stringify(s.default))}`);
      if (s.description) out.push(inline(s.description));
    }
    return out;
  };

  /** The object shapes a schema may take (a union's alternatives), each with its fields. */
  const objectsOf = (schema: Schema): Schema[] =>
    alternatives(schema)
      .nonNull.map(({ resolved }) => resolved)
      .filter((s) => s.type === 'object' && s.properties);

  /** One row per field, nested fields as `parent.child` and `list[].child`. */
  const fieldRows = (schema: Schema, prefix = '', depth = 0): string[][] => {
    const rows: string[][] = [];
    const objects = objectsOf(schema);
    for (const [i, object] of objects.entries()) {
      if (objects.length > 1 && prefix === '')
        rows.push([`<em>or, shape ${i + 1} of ${objects.length}:</em>`, '', '', '']);
      const required = new Set(object.required ?? []);
      for (const [name, field] of Object.entries(object.properties ?? {})) {
        const path = `${prefix}${name}`;
        rows.push([
          escape(path),
          escape(typeOf(field)),
          required.has(name) ? 'yes' : 'no',
          constraints(field).join('; '),
        ]);
        if (depth >= 3) continue;
        const { nonNull } = alternatives(field);
        for (const { resolved } of nonNull) {
          if (resolved.type === 'object') rows.push(...fieldRows(resolved, `${path}.`, depth + 1));
          if (resolved.type === 'array' && resolved.items)
            rows.push(...fieldRows(resolved.items, `${path}[].`, depth + 1));
        }
      }
    }
    return rows;
  };

  /** The error strings an answer's schema allows, per shape. */
  const errorStrings = (schema: Schema): string[] =>
    objectsOf(schema).flatMap((object) => {
      const error = object.properties?.error ? resolve(object.properties.error) : undefined;
      if (!error) return [];
      return (error.enum ?? (error.const === undefined ? [] : [error.const])).map(String);
    });

  return { typeOf, constraints, fieldRows, errorStrings };
}
type Reader = ReturnType<typeof schemaReader>;

const FIELD_HEAD = ['Field', 'Type', 'Required', 'Constraints'];

function curl({ method, url, op }: Listed, base: string): string {
  const values = new Map(op.parameters.map((p) => [p.name, String(p.example)]));
  const filled = url.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name) ?? name);
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => `${p.name}=${String(p.example)}`)
    .join('&');
  const parts = [
    `curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${base}${filled}${query ? `?${query}` : ''}"`,
  ];
  for (const scheme of op.security ?? [])
    parts.push(...Object.keys(scheme).map((s) => `-H '${AUTH_HEADER[s] ?? s}'`));
  const body = op.requestBody?.content['application/json'].example;
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(body)}'`);
  return `<pre class="curl"><code>${escape(parts.join(' \\\n  '))}</code></pre>`;
}

function answerHtml(status: string, answer: Answer, read: Reader): string {
  const headers = Object.entries(answer.headers ?? {}).map(([name, h]) => [
    code(name),
    h.schema ? escape(read.typeOf(h.schema)) : 'string',
    h.required ? 'yes' : 'no',
    [...(h.schema ? read.constraints(h.schema) : []), h.description ? inline(h.description) : '']
      .filter(Boolean)
      .join('; '),
  ]);
  const content = answer.content?.['application/json'];
  const fields = content?.schema ? read.fieldRows(content.schema) : [];
  return `<div class="answer">
<h4><span class="http-status http-status-${status[0]}xx">${status}</span> ${inline(answer.description)}</h4>
${table(`Headers of ${status}`, ['Header', 'Type', 'Required', 'Meaning'], headers)}
${table(`Fields of ${status}`, FIELD_HEAD, fields)}
${content?.example === undefined ? '' : `<p class="example-label">Example</p>${json(content.example)}`}
</div>`;
}

function operationHtml(listed: Listed, read: Reader, base: string): string {
  const { method, path, op, url } = listed;
  const params = op.parameters.map((p) => [
    code(p.name),
    escape(p.in),
    p.schema ? escape(read.typeOf(p.schema)) : 'string',
    p.required ? 'yes' : 'no',
    [...(p.schema ? read.constraints(p.schema) : []), p.description ? inline(p.description) : '']
      .filter(Boolean)
      .join('; '),
  ]);
  const body = op.requestBody?.content['application/json'];
  const auth = (op.security ?? []).flatMap((s) => Object.keys(s));
  return `<section class="operation" id="${anchor(method, path)}" data-method="${method}" data-path="${escape(path)}">
<h2><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(url)}</code></h2>
<p>${inline(op.summary)}</p>
<p class="facts">Auth: ${auth.length ? auth.map((a) => code(AUTH_HEADER[a] ?? a)).join(' ') : 'none'}${op.operationId ? ` · operationId ${code(op.operationId)}` : ''}</p>
${op.description ? `<p>${inline(op.description)}</p>` : ''}
${params.length ? `<h3>Parameters</h3>${table('Parameters', ['Name', 'In', 'Type', 'Required', 'Constraints'], params)}` : ''}
${body?.schema ? `<h3>Body</h3>${table('Body fields', FIELD_HEAD, read.fieldRows(body.schema))}` : ''}
<h3>Request</h3>
${curl(listed, base)}
${body ? `<p class="example-label">Body example</p>${json(body.example)}` : ''}
<h3>Responses</h3>
${Object.entries(op.responses)
  .map(([status, answer]) => answerHtml(status, answer, read))
  .join('\n')}
</section>`;
}

/** Every error string the document lists, by status, with the operations that answer it. */
function errorCatalogue(operations: Listed[], read: Reader): string {
  const where = new Map<string, { status: string; error: string; ops: Set<string> }>();
  for (const { method, path, op } of operations) {
    for (const [status, answer] of Object.entries(op.responses)) {
      const schema = answer.content?.['application/json'].schema;
      if (Number(status) < 400 || !schema) continue;
      for (const error of read.errorStrings(schema)) {
        const key = `${status} ${error}`;
        const entry = where.get(key) ?? { status, error, ops: new Set<string>() };
        entry.ops.add(`<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a>`);
        where.set(key, entry);
      }
    }
  }
  const rows = [...where.values()]
    .sort((a, b) => a.status.localeCompare(b.status) || a.error.localeCompare(b.error))
    .map(({ status, error, ops }) => [status, code(error), [...ops].join(', ')]);
  return table('Error answers', ['Status', '<code>error</code>', 'Where'], rows);
}

/** Each operation's limits, as its description states them (spec 8). */
function limitsTable(operations: Listed[]): string {
  const rows = operations.flatMap(({ method, path, op }) => {
    const limits = /Limits? \(spec 8\): ([^\n]*)/.exec(op.description ?? '')?.[1];
    return limits
      ? [[`<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a>`, inline(limits)]]
      : [];
  });
  return table('Limits per operation', ['Operation', 'Limit'], rows);
}

const CLIENT_BEHAVIOUR = `<ul>
<li><strong>Retry 429 and 503</strong> (and network errors) with a growing interval, never sooner than
<code>Retry-After</code> (integer seconds, on every 429 and 503). Do not retry 400, 401 or 403 unchanged.</li>
<li><strong>Stop on 401.</strong> <code>invalid credential</code> on a report: the key is revoked or this
address is not the one it was registered at; ask the operator to claim again. <code>invalid code</code>:
ask for a new code.</li>
<li><strong>426 <code>plugin_outdated</code></strong> comes only from the plugin paths
(<code>/plugin/v1/claim</code>, <code>/plugin/v1/report</code>) when <code>pluginVersion</code> is below the
operator's minimum; point the operator at <code>downloadUrl</code> (<code>""</code> while unknown). Ask
<code>/plugin/v1/version</code> on start and every 12 hours; a <code>null</code> there means unknown.</li>
<li><strong>Report every round:</strong> <code>round_start</code> with the new seed, <code>round_end</code>
with the same seed when it ends; <code>periodic</code> every 60 s by default (not under 10 s).</li>
<li><strong><code>blockedUntil: null</code> is not a failure:</strong> <code>reason</code> says why
(<code>cooldown</code>, <code>busy</code>, <code>gap</code>; for a <code>round_end</code>
<code>closed</code>, <code>not_open</code> or <code>other_key</code>), or <code>exhausted</code> is true.
New values may be added: treat an unknown one as "no window".</li>
<li><strong>Ignore fields you do not know:</strong> v1 only ever adds fields and values.</li>
<li><strong>Times</strong> you send may be any RFC 3339 date-time (<code>Z</code> or an offset); the
service writes UTC with milliseconds.</li>
<li><strong>Store a credential at once:</strong> it is shown only in the answer that issues it
(<code>Cache-Control: no-store</code>).</li>
</ul>`;

/** The page, once per process: the document does not change while it runs. */
export function docsPageHtml(document: Document): string {
  const prefix = document.servers[0]!.url.replace(/\/$/, '');
  const read = schemaReader(document);
  const operations: Listed[] = documentOperations(document).map(({ method, path, op, atRoot }) => ({
    method,
    path,
    op: op as Operation,
    url: `${atRoot ? '' : prefix}${path}`,
  }));
  const base = '$BASE';
  const schemes = Object.entries(
    (document.components as { securitySchemes?: Record<string, { description?: string }> }).securitySchemes ??
      {},
  ).map(([name, scheme]) => [
    code(name),
    code(AUTH_HEADER[name] ?? name),
    scheme.description ? inline(scheme.description) : '',
    operations
      .filter(({ op }) => (op.security ?? []).some((s) => name in s))
      .map(
        ({ method, path }) =>
          `<a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a>`,
      )
      .join(', '),
  ]);
  return `<!doctype html>
<html lang="en">
<head>
${PAGE_META}
<title>seedblock API reference</title>
<meta name="description" content="${escape(DESCRIPTION)}" />
<link rel="icon" type="image/svg+xml" href="/favicon.svg" />
${VIEWER_STYLES}
<link rel="stylesheet" href="/docs/docs.css" />
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><a class="brand" href="/">seedblock <small>API reference</small></a></header>
<main id="main">
<h1>${escape(document.info.description ?? document.info.title)}</h1>
<p>Every operation with its parameters, body and answer fields, a curl line and examples, made from
the OpenAPI 3.1 document tools read:
<a href="${escape(prefix)}/openapi.json"><code>${escape(prefix)}/openapi.json</code></a>. Bodies are JSON
(UTF-8, at most 16 KiB) both ways and never coerced (<code>"1"</code> is not a number); error bodies are
<code>{"error": "…"}</code>. In the curl lines set <code>BASE</code> to the service's address, e.g.
<code>BASE=https://seedblock.example</code>.</p>
<nav aria-label="Contents"><ul>
<li><a href="#auth">Authentication</a></li>
<li><a href="#limits">Limits</a></li>
<li><a href="#errors">Errors</a></li>
<li><a href="#client-behaviour">Client behaviour</a></li>
${operations
  .map(
    ({ method, path }) =>
      `<li><a href="#${anchor(method, path)}"><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></a></li>`,
  )
  .join('\n')}
</ul></nav>
<section id="auth">
<h2>Authentication</h2>
<p>Reads, the claims and the version need none. Reports and revoke carry a server key as a bearer
token; the operator endpoints the service's <code>ADMIN_TOKEN</code>. A credential is shown once, in
the answer that issues it.</p>
${table('Security schemes', ['Scheme', 'Header', 'What', 'Operations'], schemes)}
</section>
<section id="limits">
<h2>Limits</h2>
<p>Fixed windows from a key's first request; requests past the limit still count, so resending right
after a 429 keeps getting 429 until the window ends. Every 429 carries <code>Retry-After</code>. An
IPv6 client is counted per /56. Operations not listed have no limit.</p>
${limitsTable(operations)}
</section>
<section id="errors">
<h2>Errors</h2>
<p>Every error answer the document lists, by status.</p>
${errorCatalogue(operations, read)}
</section>
<section id="client-behaviour">
<h2>Client behaviour</h2>
${CLIENT_BEHAVIOUR}
</section>
${operations.map((listed) => operationHtml(listed, read, base)).join('\n')}
</main>
</body>
</html>
`;
}

/** A text body as sent: identity, brotli and gzip, made once. */
function coded(text: string) {
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

function sendCoded(req: Request, res: Response, body: ReturnType<typeof coded>, type: string): void {
  const coding = mapCoding(req);
  securityHeaders(res);
  res.setHeader('Vary', 'Accept-Encoding');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.type(type).send(coding ? body[coding] : body.identity);
}

/** GET /docs, its stylesheet and the icon (also at /favicon.ico), outside the API prefix. */
export function docsPageRouter(document: Document, distDir = DIST_DIR): Router {
  const html = docsPageHtml(document);
  const manifestFile = join(distDir, 'manifest.json');
  const manifest = loadOnChange(manifestFile, () => readFileSync(manifestFile, 'utf8'));
  // The page for each viewer stylesheet (one per build), compressed once.
  const pages = new Map<string, ReturnType<typeof coded>>();
  const stylesheet = coded(STYLESHEET);
  const router = express.Router();
  router.get('/docs', (req, res) => {
    // Without a viewer build the page is unstyled but whole.
    const built = manifest();
    const css = built === undefined ? '' : (JSON.parse(built) as BuiltAssets).css;
    let page = pages.get(css);
    if (!page) {
      if (pages.size > 8) pages.clear();
      page = coded(html.replace(VIEWER_STYLES, css ? `<link rel="stylesheet" href="/assets/${css}" />` : ''));
      pages.set(css, page);
    }
    res.set('Cache-Control', 'no-cache');
    sendCoded(req, res, page, 'html');
  });
  router.get('/docs/docs.css', (req, res) => {
    res.set('Cache-Control', 'public, max-age=300');
    sendCoded(req, res, stylesheet, 'css');
  });
  // Browsers ask /favicon.ico of any page without an icon link: never a 404.
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    securityHeaders(res);
    res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(ICON);
  });
  return router;
}
