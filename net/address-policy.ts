import { embeddedIpv4, parseIp } from './ip-address.ts';
import type { IpAddress } from './ip-address.ts';

/** Name of the special-purpose range an address falls in; 'public' when none, 'invalid' when unparsable. */
export type AddressRange =
  | 'public'
  | 'invalid'
  | 'unspecified'
  | 'this-network'
  | 'private'
  | 'carrier-grade-nat'
  | 'loopback'
  | 'link-local'
  | 'ietf-protocol-assignments'
  | 'documentation'
  | '6to4-relay-anycast'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'nat64-local'
  | 'discard'
  | 'teredo'
  | 'unique-local'
  | 'site-local';

type Resolve = AddressRange | ((ip: IpAddress) => AddressRange);

interface Rule {
  readonly family: 4 | 6;
  readonly prefix: Uint8Array;
  readonly bits: number;
  readonly resolve: Resolve;
}

function rule(cidr: string, resolve: Resolve): Rule {
  const [text = '', bits = ''] = cidr.split('/');
  const ip = parseIp(text);
  if (!ip) throw new Error(`bad rule ${cidr}`);
  return { family: ip.family, prefix: ip.bytes, bits: Number(bits), resolve };
}

function matches(bytes: Uint8Array, r: Rule): boolean {
  for (let i = 0; i * 8 < r.bits; i++) {
    const mask = r.bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (r.bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((r.prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

// First match wins, so specific entries come before the blocks that contain them.
// Sources: IANA IPv4/IPv6 Special-Purpose Address Registries.
const RULES: readonly Rule[] = [
  rule('0.0.0.0/32', 'unspecified'),
  rule('0.0.0.0/8', 'this-network'),
  rule('10.0.0.0/8', 'private'),
  rule('100.64.0.0/10', 'carrier-grade-nat'),
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'),
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.0/24', 'ietf-protocol-assignments'),
  rule('192.0.2.0/24', 'documentation'),
  rule('192.88.99.0/24', '6to4-relay-anycast'), // deprecated by RFC 7526, no longer global
  rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'benchmarking'),
  rule('198.51.100.0/24', 'documentation'),
  rule('203.0.113.0/24', 'documentation'),
  rule('224.0.0.0/4', 'multicast'),
  rule('255.255.255.255/32', 'broadcast'),
  rule('240.0.0.0/4', 'reserved'),

  rule('::/128', 'unspecified'),
  rule('::1/128', 'loopback'),
  // v4-mapped, v4-compatible and NAT64 name an IPv4 host: judge that host, so no IPv6 spelling
  // can reach an IPv4 range the plain form would refuse.
  rule('::ffff:0:0/96', (ip) => classifyParsed(embeddedIpv4(ip))),
  rule('::/96', (ip) => classifyParsed(embeddedIpv4(ip))),
  rule('64:ff9b::/96', (ip) => classifyParsed(embeddedIpv4(ip))),
  rule('64:ff9b:1::/48', 'nat64-local'),
  rule('100::/64', 'discard'),
  // Inside 2001::/23 only these are globally reachable (IANA registry "Globally Reachable" = True).
  rule('2001:1::1/128', 'public'),
  rule('2001:1::2/128', 'public'),
  rule('2001:1::3/128', 'public'),
  rule('2001:3::/32', 'public'),
  rule('2001:4:112::/48', 'public'),
  rule('2001:20::/28', 'public'),
  rule('2001:30::/28', 'public'),
  rule('2001::/32', 'teredo'),
  rule('2001:2::/48', 'benchmarking'),
  rule('2001::/23', 'ietf-protocol-assignments'),
  rule('2001:db8::/32', 'documentation'),
  // 6to4 tunnels to the embedded IPv4 host: refuse it when that host is non-public.
  rule('2002::/16', (ip) => classifyParsed(embeddedIpv4(ip, 2))),
  rule('3fff::/20', 'documentation'),
  rule('fc00::/7', 'unique-local'),
  rule('fe80::/10', 'link-local'),
  rule('fec0::/10', 'site-local'),
  rule('ff00::/8', 'multicast'),
];

// IANA has allocated only 2000::/3 as global unicast; everything else left over is reserved.
const GLOBAL_UNICAST = rule('2000::/3', 'public');

/** Range of an already parsed address. */
export function classifyParsed(ip: IpAddress): AddressRange {
  for (const r of RULES) {
    if (r.family === ip.family && matches(ip.bytes, r)) {
      return typeof r.resolve === 'function' ? r.resolve(ip) : r.resolve;
    }
  }
  if (ip.family === 6 && !matches(ip.bytes, GLOBAL_UNICAST)) return 'reserved';
  return 'public';
}

/** Range name of an IP literal (any textual form), 'invalid' when it is not one. */
export function classifyAddress(ip: string): AddressRange {
  const parsed = parseIp(ip);
  return parsed ? classifyParsed(parsed) : 'invalid';
}

/** True only for a globally reachable unicast address. Invalid input is never public. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}

/** Ranges that never name one host, so even allowPrivate does not probe them. */
export const NEVER_PROBED: ReadonlySet<AddressRange> = new Set<AddressRange>([
  'invalid',
  'unspecified',
  'this-network',
  'multicast',
  'broadcast',
]);

/**
 * What PROBE_ALLOW_PRIVATE opens: the ranges a LAN or a test host really uses. Documentation,
 * benchmarking and reserved ranges stay closed even then: no game server lives there, and a
 * probe sent there would leave the machine for an address nobody owns.
 */
export const LOCAL_RANGES: ReadonlySet<AddressRange> = new Set<AddressRange>([
  'private',
  'carrier-grade-nat',
  'loopback',
  'link-local',
  'unique-local',
  'site-local',
]);

/** Whether the probe may send to this address under the given policy. */
export function mayProbe(ip: IpAddress, allowPrivate: boolean): { allowed: boolean; range: AddressRange } {
  const range = classifyParsed(ip);
  return { allowed: range === 'public' || (allowPrivate && LOCAL_RANGES.has(range)), range };
}
