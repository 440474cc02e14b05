import type { OpenApiDocument } from '../openapi-types.ts';
import { code, inline, operationLink, table } from './html.ts';
import { AUTH_HEADER, type Listed } from './operation.ts';
import type { SchemaReader } from './schema-reader.ts';

// The sections of the API reference page above its operations: auth, limits, errors and how a
// client should behave.

/** The security schemes, each with its header and the operations that take it. */
export function authSection(document: OpenApiDocument, operations: Listed[]): string {
  const schemes = Object.entries(document.components.securitySchemes).map(([name, scheme]) => [
    code(name),
    code(AUTH_HEADER[name] ?? name),
    scheme.description ? inline(scheme.description) : '',
    operations
      .filter(({ op }) => op.security.some((s) => name in s))
      .map(operationLink)
      .join(', '),
  ]);
  return `<section id="auth">
<h2>Authentication</h2>
<p>Reads, the claims and the version need none. Reports and revoke carry a server key as a bearer
token; the operator endpoints the service's <code>ADMIN_TOKEN</code>. A credential is shown once, in
the answer that issues it.</p>
${table('Security schemes', ['Scheme', 'Header', 'What', 'Operations'], schemes)}
</section>`;
}

/** Each operation's limits, as its description states them (spec 8). */
export function limitsSection(operations: Listed[]): string {
  const rows = operations.flatMap((listed) => {
    const limits = /Limits? \(spec 8\): ([^\n]*)/.exec(listed.op.description ?? '')?.[1];
    return limits ? [[operationLink(listed), inline(limits)]] : [];
  });
  return `<section id="limits">
<h2>Limits</h2>
<p>Fixed windows from a key's first request; requests past the limit still count, so resending right
after a 429 keeps getting 429 until the window ends. Every 429 carries <code>Retry-After</code>. An
IPv6 client is counted per /56. Operations not listed have no limit.</p>
${table('Limits per operation', ['Operation', 'Limit'], rows)}
</section>`;
}

/** Every error string the document lists, by status, with the operations that answer it. */
function errorCatalogue(operations: Listed[], read: SchemaReader): string[][] {
  const where = new Map<string, { status: string; error: string; ops: Set<string> }>();
  for (const listed of operations) {
    for (const [status, answer] of Object.entries(listed.op.responses)) {
      const schema = answer.content?.['application/json'].schema;
      if (Number(status) < 400 || !schema) continue;
      for (const error of read.errorStrings(schema)) {
        const key = `${status} ${error}`;
        const entry = where.get(key) ?? { status, error, ops: new Set<string>() };
        entry.ops.add(operationLink(listed));
        where.set(key, entry);
      }
    }
  }
  return [...where.values()]
    .sort((a, b) => a.status.localeCompare(b.status) || a.error.localeCompare(b.error))
    .map(({ status, error, ops }) => [status, code(error), [...ops].join(', ')]);
}

export function errorsSection(operations: Listed[], read: SchemaReader): string {
  return `<section id="errors">
<h2>Errors</h2>
<p>Every error answer the document lists, by status.</p>
${table('Error answers', ['Status', '<code>error</code>', 'Where'], errorCatalogue(operations, read))}
</section>`;
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
<li><strong>Times</strong> you send are RFC 3339 date-times (<code>T</code>, not a space; <code>Z</code> or an
offset), their year in the Gregorian calendar (format with the invariant culture); the service writes UTC
with milliseconds, which .NET's <code>DataContractJsonSerializer</code> cannot read as a <code>DateTime</code>:
read them as strings.</li>
<li><strong>A 400 <code>invalid request</code> names its <code>field</code></strong> when one field or query
parameter failed; fix that one.</li>
<li><strong>Store a credential at once:</strong> it is shown only in the answer that issues it
(<code>Cache-Control: no-store</code>).</li>
</ul>`;

export const clientBehaviourSection = () => `<section id="client-behaviour">
<h2>Client behaviour</h2>
${CLIENT_BEHAVIOUR}
</section>`;
