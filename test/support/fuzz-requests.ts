// Arbitrary HTTP requests for the fuzz drill (fast-check): bodies, content types, encodings,
// headers, path parameters and query strings, each mixing well-formed values with every kind of
// wrong one. A request is plain data (method, path, headers, bytes) plus the facts the checker
// needs to know what it may be answered. Only ever sent to loopback test APIs.
import fc from 'fast-check';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { MAX_BODY_BYTES } from '../../store/index.ts';

export interface FuzzRequest {
  method: string;
  /** Path and query, as handed to the URL parser. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** The body before any Content-Encoding was applied (what the server parses). */
  payloadBytes: number;
  /** What kind of body this was (for the report of a failure). */
  bodyKind: string;
}

/** What the generators draw valid values from: live keys, codes, known seeds and ETags. */
export interface FuzzPools {
  credentials: string[];
  codes: string[];
  seeds: number[];
  etags: string[];
  adminToken: string;
}

// ---------------------------------------------------------------------------------------------
// JSON text, built by hand so it can hold what JSON.stringify never writes: duplicate keys, number
// tokens like 1e309 or -0, deep nesting.

const jsonString = (s: string) => JSON.stringify(s);
const objectText = (entries: [string, string][]) =>
  `{${entries.map(([k, v]) => `${jsonString(k)}:${v}`).join(',')}}`;

const unicodeText = (maxLength: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ maxLength }),
    fc.constantFrom('', ' ', '\u0000', '\u202e', '🦀', 'e\u0301', '\ud800', '\uffff', 'Ω'.repeat(40)),
  );

export const NUMBER_TOKENS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.0',
  '1.5',
  '1e3',
  '1E2',
  '0.1e1',
  '1e309',
  '-1e309',
  '1e-400',
  '65535',
  '65536',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '1' + '0'.repeat(400),
  '123456.000000000001',
];

const numberToken: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_TOKENS),
  fc.integer().map(String),
  fc.integer({ min: -5, max: 70_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

const deepArrayText = fc.integer({ min: 1, max: 7_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

/** Any JSON value as text, of every type, including odd number tokens and deep arrays. */
export const wildValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: numberToken },
  { weight: 3, arbitrary: unicodeText(80).map(jsonString) },
  { weight: 2, arbitrary: fc.constantFrom('true', 'false', 'null', '[]', '{}', '""', '[1]', '{"a":1}') },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deepArrayText.filter((t) => t.length < 200) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }).map(jsonString) },
);

/** A field's value: usually one of its valid values, else anything. */
const field = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: wildValue });

const ints = (min: number, max: number) => fc.integer({ min, max }).map(String);
const text = (max: number) => fc.string({ minLength: 1, maxLength: max }).map(jsonString);
const versionText = fc
  .oneof(
    fc.tuple(fc.nat(3), fc.nat(12), fc.nat(12)).map(([a, b, c]) => `${a}.${b}.${c}`),
    fc.constantFrom('1.4.9', '1.5.0', '2.0.0', 'v1.2.3', '1.2', '1.2.3-beta', '01.2.3', '1.2.3.4'),
  )
  .map(jsonString);
const isoText = fc
  .oneof(
    fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    fc.constantFrom(
      '2026-03-01T08:00:00Z',
      '2026-02-30T00:00:00Z',
      'yesterday',
      '2026-03-01T08:00:00+01:00',
      '9999-12-31T23:59:59Z',
      '9999-12-31T23:59:59-23:59',
      '0000-01-01T00:00:00+23:59',
      '0000-01-01T00:00:00Z',
    ),
  )
  .map(jsonString);

/** A documented body: its fields with their valid values, and which of them are required. */
export interface BodySpec {
  fields: Record<string, fc.Arbitrary<string>>;
  required: string[];
  /** Exactly one of the fields is to be sent (the test clock's `set` or `advanceMs`). */
  exactlyOne?: boolean;
}

/** The documented bodies (spec 4.1, 4.4, 4.5; the detector's and the test clock's). */
export function bodySpecs(pools: FuzzPools): Record<string, BodySpec> {
  const seed = fc.oneof(ints(1, 2_147_483_647), fc.constantFrom(...pools.seeds.map(String)));
  // Reports never name the first pool seed: it stays servable for the map answers (200, 304).
  const reportSeed = fc.oneof(ints(1, 2_147_483_647), fc.constantFrom(...pools.seeds.slice(1).map(String)));
  const port = ints(1, 65_535);
  return {
    selfClaim: { fields: { port, clientName: text(64), gameVersion: text(32) }, required: ['port'] },
    report: {
      fields: {
        event: fc.constantFrom('"round_start"', '"round_end"', '"periodic"'),
        seed: reportSeed,
        port,
        roundId: text(64),
        roundStartedAt: isoText,
        elapsedSeconds: fc.oneof(ints(0, 100_000), fc.double({ min: 0, max: 1e6, noNaN: true }).map(String)),
        pluginVersion: versionText,
      },
      required: ['event', 'seed', 'port'],
    },
    pluginClaim: {
      fields: {
        code: fc.oneof(fc.constantFrom(...pools.codes.map(jsonString)), text(128)),
        port,
        pluginVersion: versionText,
        gameVersion: text(32),
        labApiVersion: text(32),
      },
      required: ['code', 'port'],
    },
    detection: { fields: { seed }, required: ['seed'] },
    clock: {
      fields: {
        set: isoText,
        advanceMs: fc.oneof(ints(-1_000_000, 1_000_000), fc.constantFrom('1000000000000', '-1000000000000')),
      },
      required: [],
      exactlyOne: true,
    },
  };
}

/** An object with (some of) the right keys, each valid or of a wrong type, maybe with duplicates. */
function shapedBody({ fields }: BodySpec): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  const entries = names.map((name) =>
    fc.option(
      field(fields[name]!).map((v): [string, string] => [name, v]),
      { freq: 5, nil: null },
    ),
  );
  return fc
    .tuple(
      fc.tuple(...entries),
      fc.array(fc.tuple(fc.constantFrom(...names, 'extra', '__proto__', 'constructor', ''), wildValue), {
        maxLength: 3,
      }),
      fc.boolean(),
    )
    .map(([picked, extra, shuffle]) => {
      const all = [...picked.filter((e): e is [string, string] => e !== null), ...extra];
      if (shuffle) all.reverse();
      return objectText(all);
    });
}

/**
 * A valid body (required fields, some optional ones), often with one field then given a wrong
 * value or sent twice: these reach the decisions behind the validation.
 */
function nearValidBody({ fields, required, exactlyOne }: BodySpec): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  return fc
    .tuple(
      fc.tuple(...names.map((name) => fields[name]!)),
      fc.tuple(...names.map(() => fc.boolean())),
      fc.nat(names.length - 1),
      fc.constantFrom('none', 'none', 'replace', 'duplicate'),
      wildValue,
    )
    .map(([values, keep, one, change, wild]) => {
      const entries: [string, string][] = names.flatMap((name, i): [string, string][] => {
        const chosen = exactlyOne ? i === one : required.includes(name) || keep[i];
        return chosen ? [[name, values[i]!]] : [];
      });
      const target = names[one]!;
      if (change === 'replace') {
        const at = entries.findIndex(([k]) => k === target);
        if (at >= 0) entries[at] = [target, wild];
        else entries.push([target, wild]);
      } else if (change === 'duplicate') {
        entries.push([target, wild]);
      }
      return objectText(entries);
    });
}

const rawText = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

export interface BodyDraw {
  kind: string;
  bytes: Uint8Array;
}

/** Every kind of body: shaped objects, any JSON, any value, unicode text, deep arrays, huge, empty, bytes. */
export function bodyArb(spec: BodySpec | null): fc.Arbitrary<BodyDraw> {
  const kinds: { weight: number; arbitrary: fc.Arbitrary<BodyDraw> }[] = [
    { weight: 2, arbitrary: fc.json().map((t) => ({ kind: 'json', bytes: rawText(t) })) },
    {
      weight: 1,
      arbitrary: fc
        .anything()
        .map((v) => ({ kind: 'anything', bytes: rawText(JSON.stringify(v) ?? 'undefined') })),
    },
    { weight: 1, arbitrary: unicodeText(200).map((t) => ({ kind: 'text', bytes: rawText(t) })) },
    { weight: 1, arbitrary: deepArrayText.map((t) => ({ kind: 'deep array', bytes: rawText(t) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: MAX_BODY_BYTES - 64, max: MAX_BODY_BYTES * 3 }), fc.boolean())
        .map(([n, valid]) => ({
          kind: `large ${n}`,
          bytes: rawText(valid ? `{"pad":"${'x'.repeat(Math.max(0, n - 10))}"}` : 'y'.repeat(n)),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('', ' ', 'null', '0', '"x"', 'true', '[]', '{}', '{')
        .map((t) => ({ kind: 'tiny', bytes: rawText(t) })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ kind: 'bytes', bytes: b })) },
  ];
  if (spec) {
    kinds.push({
      weight: 6,
      arbitrary: shapedBody(spec).map((t) => ({ kind: 'shaped', bytes: rawText(t) })),
    });
    kinds.push({
      weight: 6,
      arbitrary: nearValidBody(spec).map((t) => ({ kind: 'near valid', bytes: rawText(t) })),
    });
  }
  return fc.oneof(...kinds);
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/json; foo=bar',
  'application/json, text/plain',
  'application/vnd.api+json',
  'text/json',
  'text/plain',
  'text/plain; charset=utf-8',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  '*/*',
  'json',
  ';',
];

const contentTypeArb: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'GZIP', 'compress', 'gzip, br', 'x-nonsense'];
const encode: Record<string, (b: Uint8Array) => Uint8Array> = {
  gzip: (b) => gzipSync(b),
  GZIP: (b) => gzipSync(b),
  deflate: (b) => deflateSync(b),
  br: (b) => brotliCompressSync(b),
};

// ---------------------------------------------------------------------------------------------
// Headers: fetch takes Latin-1 byte strings without CR, LF or NUL, so any text (unicode too) is
// sent as its UTF-8 bytes, one Latin-1 character per byte, with control characters dropped.
// Long values stay under Node's 16 KiB limit for the request line and headers together (beyond
// it Node itself answers 431 before the app sees the request): path and query up to 3,000
// characters each, a header value up to 800.

export function headerValue(s: string): string {
  return Buffer.from(s, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

const garbage = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ minLength: 300, maxLength: 800 }),
  fc.constantFrom('', ' ', ',', ';;;', '\t', '%00', 'null', 'undefined', '0'),
);

const ipish = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.constantFrom(
    'unknown',
    '127.0.0.1',
    '::1',
    '::ffff:127.0.0.1',
    '[::1]:80',
    '1.2.3.4:5',
    'fe80::1%eth0',
    '999.1.1.1',
  ),
  fc.string({ maxLength: 40 }),
);

export function headersArb(pools: FuzzPools): fc.Arbitrary<Record<string, string>> {
  const credential = fc.constantFrom(...pools.credentials);
  const auth = fc.oneof(
    { weight: 4, arbitrary: credential.map((c) => `Bearer ${c}`) },
    { weight: 1, arbitrary: credential.map((c) => `bearer   ${c}  `) },
    { weight: 1, arbitrary: credential.map((c) => `Bearer ${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${pools.adminToken}`) },
    { weight: 2, arbitrary: garbage.map((g) => `Bearer ${g}`) },
    { weight: 1, arbitrary: fc.stringMatching(/^sbk_[0-9A-Za-z]{38}$/).map((c) => `Bearer ${c}`) },
    { weight: 1, arbitrary: garbage },
    { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'Token x') },
  );
  /** Present in about `percent` % of requests. */
  const opt = <T>(arb: fc.Arbitrary<T>, percent: number) =>
    fc.oneof(
      { weight: 100 - percent, arbitrary: fc.constant(undefined) },
      { weight: percent, arbitrary: arb },
    );
  return fc
    .record({
      authorization: opt(auth, 65),
      'x-forwarded-for': opt(
        fc.oneof(
          ipish,
          fc.array(ipish, { maxLength: 5 }).map((l) => l.join(', ')),
        ),
        25,
      ),
      'x-forwarded-proto': opt(
        fc.oneof(fc.constantFrom('http', 'https', 'HTTP', 'http, https', 'ftp'), garbage),
        8,
      ),
      'accept-encoding': opt(
        fc.oneof(
          fc.constantFrom(
            'br',
            'gzip',
            'identity',
            '*',
            'br;q=0',
            'gzip;q=1.5, br;q=nan',
            'identity;q=0, *;q=0',
            'deflate',
            ', , ,',
          ),
          garbage,
        ),
        25,
      ),
      'if-none-match': opt(
        fc.oneof(
          fc.constantFrom('*', 'W/"x"', '"', '""', ...pools.etags),
          fc
            .array(fc.constantFrom(...pools.etags, '*', 'W/"x"', 'garbage'), { maxLength: 4 })
            .map((l) => l.join(', ')),
          garbage,
        ),
        20,
      ),
      'user-agent': opt(garbage, 20),
      'x-request-id': opt(garbage, 10),
      accept: opt(
        fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', 'image/png'), garbage),
        10,
      ),
      cookie: opt(garbage, 8),
    })
    .map((record) => {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(record)) {
        if (value !== undefined) out[name] = headerValue(value);
      }
      return out;
    });
}

// ---------------------------------------------------------------------------------------------
// Path parameters and query strings.

/** UTF-8 percent-encoding of any string (lone surrogates become U+FFFD). */
export const percentEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

export const ODD_PARAMS = [
  '0',
  '-1',
  '01',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '1e3',
  '1.0',
  '+1',
  '0x10',
  ' 1',
  '1%20',
  '%201',
  'NaN',
  'Infinity',
  'null',
  '%',
  '%zz',
  '%0',
  '%00',
  '1%00',
  '%2F',
  '1%2F2',
  '%2e',
  '%2e%2e',
  '.',
  '..',
  '%E0%A4%A',
  '%C0%AF',
  '%FF',
  '%EF%BC%91',
  '１２３',
  '',
  'a/b',
  '1;2',
  '1,2',
  '1?x=1',
  '1#frag',
];

export function paramArb(seeds: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 1, max: 2_147_483_647 }).map(String) },
    { weight: 3, arbitrary: fc.constantFrom(...seeds.map(String)) },
    { weight: 3, arbitrary: fc.constantFrom(...ODD_PARAMS) },
    { weight: 2, arbitrary: unicodeText(40).map(encodeURIComponentSafe) },
    { weight: 1, arbitrary: unicodeText(20).map(percentEncode) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9A-Za-z._~!$&'()*+,;=:@%-]{1,60}$/) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('1', 'a', '%', '0', '%41'), fc.integer({ min: 100, max: 3_000 }))
        .map(([unit, n]) => unit.repeat(n).slice(0, 3_000)),
    },
  );
}

function encodeURIComponentSafe(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return percentEncode(s);
  }
}

const queryPart = fc.oneof(
  fc.constantFrom(
    'cursor',
    'limit',
    'a',
    'cursor[]',
    'limit[0]',
    'cursor[a][b]',
    '__proto__',
    'constructor',
    '',
  ),
  unicodeText(10).map(encodeURIComponentSafe),
  fc.constantFrom('%', '%zz', '%00'),
);
const queryValue = fc.oneof(
  fc.integer({ min: -2, max: 600 }).map(String),
  fc.constantFrom(...ODD_PARAMS),
  unicodeText(20).map(encodeURIComponentSafe),
  fc.integer({ min: 500, max: 2_000 }).map((n) => '9'.repeat(n)),
);

export function queryArb(seeds: number[]): fc.Arbitrary<string> {
  const pair = fc.oneof(
    fc.tuple(queryPart, queryValue).map(([k, v]) => `${k}=${v}`),
    fc.constantFrom(...seeds.map((s) => `cursor=${s}`), 'limit=1', 'limit=500', 'limit=501', 'limit=0'),
    queryPart,
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constant('?') },
    {
      weight: 4,
      arbitrary: fc.array(pair, { minLength: 1, maxLength: 6 }).map((p) => `?${p.join('&')}`.slice(0, 3_000)),
    },
    { weight: 1, arbitrary: fc.constantFrom('?&&&', '?=', '?%', '?cursor=1&cursor=2', '?limit=1&limit=2') },
  );
}

// ---------------------------------------------------------------------------------------------

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

export interface RequestShape {
  /** The documented method; others are drawn now and then. */
  method: string;
  /** Builds the path (with the query) from a drawn parameter. */
  path: (param: string, query: string) => string;
  body: BodySpec | null;
  /** The path parameter (maps, jobs, viewer pages), or the varying part of the path. */
  params?: fc.Arbitrary<string>;
  query: fc.Arbitrary<string>;
  headers: fc.Arbitrary<Record<string, string>>;
}

export function requestArb(shape: RequestShape): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant(shape.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  );
  return fc
    .tuple(
      method,
      shape.params ?? fc.constant(''),
      shape.query,
      shape.headers,
      bodyArb(shape.body),
      contentTypeArb,
      fc.oneof(
        { weight: 11, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...ENCODINGS) },
      ),
      fc.boolean(),
    )
    .map(([m, param, query, headers, body, contentType, encoding, compress]): FuzzRequest => {
      const out: FuzzRequest = {
        method: m,
        path: shape.path(param, query),
        headers: { ...headers },
        payloadBytes: 0,
        bodyKind: 'none',
      };
      if (m === 'GET' || m === 'HEAD') return out;
      if (contentType !== null) out.headers['content-type'] = headerValue(contentType);
      let bytes = body.bytes;
      out.payloadBytes = bytes.length;
      out.bodyKind = body.kind;
      if (encoding !== null) {
        out.headers['content-encoding'] = encoding;
        const apply = encode[encoding];
        if (compress && apply) {
          bytes = apply(bytes);
          out.bodyKind += ` (${encoding})`;
        } else {
          out.bodyKind += ` (not really ${encoding})`;
        }
      }
      out.body = bytes;
      return out;
    });
}
