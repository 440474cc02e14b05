import type { OperationObject, ParameterObject, ResponseObject, SchemaObject } from '../openapi-types.ts';
import { anchor, code, escape, inline, joined, json, table } from './html.ts';
import type { SchemaReader } from './schema-reader.ts';

/** An operation as the page lists it. */
export interface Listed {
  method: string;
  path: string;
  op: OperationObject;
  /** The path as a client calls it: under the API prefix, or at the root (the probes). */
  url: string;
}

/** The header each security scheme is sent as. */
export const AUTH_HEADER: Record<string, string> = {
  serverKey: 'Authorization: Bearer sbk_…',
  adminToken: 'Authorization: Bearer $ADMIN_TOKEN',
};
const authHeader = (scheme: string) => AUTH_HEADER[scheme] ?? scheme;

export const FIELD_HEAD = ['Field', 'Type', 'Required', 'Constraints'];

/** A value's type and constraints (with its description) as two cells. */
const typed = (
  read: SchemaReader,
  schema: SchemaObject | undefined,
  description: string | undefined,
): [string, string] => [
  schema ? escape(read.typeOf(schema)) : 'string',
  joined([...(schema ? read.constraints(schema) : []), description ? inline(description) : '']),
];

/** A copyable curl line of the operation, its parameters and body the document's examples. */
function curl({ method, url, op }: Listed): string {
  const values = new Map(op.parameters.map((p) => [p.name, String(p.example)]));
  const filled = url.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name) ?? name);
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) => `${p.name}=${String(p.example)}`)
    .join('&');
  const parts = [
    `curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "$BASE${filled}${query ? `?${query}` : ''}"`,
  ];
  for (const scheme of op.security) parts.push(...Object.keys(scheme).map((s) => `-H '${authHeader(s)}'`));
  const body = op.requestBody?.content['application/json'].example;
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d '${JSON.stringify(body)}'`);
  return `<pre class="curl"><code>${escape(parts.join(' \\\n  '))}</code></pre>`;
}

function answerHtml(status: string, answer: ResponseObject, read: SchemaReader): string {
  const headers = Object.entries(answer.headers ?? {}).map(([name, h]) => {
    const [type, meaning] = typed(read, h.schema, h.description);
    return [code(name), type, h.required ? 'yes' : 'no', meaning];
  });
  const content = answer.content?.['application/json'];
  const fields = content?.schema ? read.fieldRows(content.schema) : [];
  return `<div class="answer">
<h4><span class="http-status http-status-${status[0]}xx">${status}</span> ${inline(answer.description)}</h4>
${table(`Headers of ${status}`, ['Header', 'Type', 'Required', 'Meaning'], headers)}
${table(`Fields of ${status}`, FIELD_HEAD, fields)}
${content?.example === undefined ? '' : `<p class="example-label">Example</p>${json(content.example)}`}
</div>`;
}

const parameterRow = (read: SchemaReader) => (p: ParameterObject) => {
  const [type, constraints] = typed(read, p.schema, p.description);
  return [code(p.name), escape(p.in), type, p.required ? 'yes' : 'no', constraints];
};

/** The operation's section: what it does, auth, parameters, body, a request and every answer. */
export function operationHtml(listed: Listed, read: SchemaReader): string {
  const { method, path, op, url } = listed;
  const params = op.parameters.map(parameterRow(read));
  const body = op.requestBody?.content['application/json'];
  const auth = op.security.flatMap((s) => Object.keys(s));
  return `<section class="operation" id="${anchor(method, path)}" data-method="${method}" data-path="${escape(path)}">
<h2><span class="http-method http-method-${method}">${method.toUpperCase()}</span> <code>${escape(url)}</code></h2>
<p>${inline(op.summary)}</p>
<p class="facts">Auth: ${auth.length ? auth.map((a) => code(authHeader(a))).join(' ') : 'none'} · operationId ${code(op.operationId)}</p>
${op.description ? `<p>${inline(op.description)}</p>` : ''}
${params.length ? `<h3>Parameters</h3>${table('Parameters', ['Name', 'In', 'Type', 'Required', 'Constraints'], params)}` : ''}
${body?.schema ? `<h3>Body</h3>${table('Body fields', FIELD_HEAD, read.fieldRows(body.schema))}` : ''}
<h3>Request</h3>
${curl(listed)}
${body ? `<p class="example-label">Body example</p>${json(body.example)}` : ''}
<h3>Responses</h3>
${Object.entries(op.responses)
  .map(([status, answer]) => answerHtml(status, answer, read))
  .join('\n')}
</section>`;
}
