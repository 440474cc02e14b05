import { isIPv4, isIPv6 } from 'node:net';

/** A parsed IP literal: 4 or 16 bytes in network order, plus the IPv6 zone id when one was given. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly zone?: string;
}

/**
 * Parses a strict IP literal. Only what node:net accepts gets through: no '127.1', '0x7f.0.0.1',
 * leading zeros, brackets or whitespace, forms a resolver would otherwise reinterpret once the
 * string reached a socket. Every textual IPv6 form is handled (compressed, zone id, any case,
 * embedded dotted quad such as Express's '::ffff:127.0.0.1').
 */
export function parseIp(text: string): IpAddress | null {
  if (typeof text !== 'string') return null;
  if (isIPv4(text)) return { family: 4, bytes: Uint8Array.from(text.split('.'), Number) };
  if (!isIPv6(text)) return null;
  const pct = text.indexOf('%');
  const bytes = parseIpv6Body((pct === -1 ? text : text.slice(0, pct)).toLowerCase());
  if (!bytes) return null;
  return pct === -1 ? { family: 6, bytes } : { family: 6, bytes, zone: text.slice(pct + 1) };
}

function parseIpv6Body(text: string): Uint8Array | null {
  let body = text;
  if (body.includes('.')) {
    // Rewrite a trailing dotted quad as two hex groups so one parser covers both spellings.
    const cut = body.lastIndexOf(':') + 1;
    const quad = body.slice(cut);
    if (!isIPv4(quad)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = quad.split('.').map(Number);
    body = `${body.slice(0, cut)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const gap = 8 - head.length - tail.length;
  if (halves.length === 2 ? gap < 1 : gap !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? gap : 0).fill('0'), ...tail];
  const bytes = new Uint8Array(16);
  for (const [i, group] of groups.entries()) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  }
  return bytes;
}

/** Canonical text (RFC 5952 zero compression for IPv6), without the zone id. */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return ip.bytes.join('.');
  const groups = Array.from(
    { length: 8 },
    (_, i) => ((ip.bytes[i * 2] ?? 0) << 8) | (ip.bytes[i * 2 + 1] ?? 0),
  );
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at === -1) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

/** The IPv4 address in bytes[offset..offset+4] of an IPv6 address. */
export function embeddedIpv4(ip: IpAddress, offset = 12): IpAddress {
  return { family: 4, bytes: ip.bytes.slice(offset, offset + 4) };
}

/**
 * Folds v4-mapped (::ffff:a.b.c.d) and v4-compatible (::a.b.c.d) addresses to plain IPv4, since
 * that is the host they name; '::' and '::1' stay IPv6. Other addresses are returned unchanged.
 */
export function unmapIpv4(ip: IpAddress): IpAddress {
  if (ip.family === 4) return ip;
  const b = ip.bytes;
  if (b.subarray(0, 10).some((x) => x !== 0)) return ip;
  const mapped = b[10] === 0xff && b[11] === 0xff;
  const compatible = b[10] === 0 && b[11] === 0 && b.subarray(12).some((x, i) => (i < 3 ? x !== 0 : x > 1));
  return mapped || compatible ? embeddedIpv4(ip) : ip;
}

/**
 * The one written form of an address everywhere we store or compare one: v4-mapped folded to
 * IPv4, IPv6 compressed and lower case, no zone. Null for text that is no IP literal.
 */
export function canonicalIp(text: string): string | null {
  const parsed = parseIp(text);
  return parsed ? formatIp(unmapIpv4(parsed)) : null;
}
