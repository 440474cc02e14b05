import { classifyParsed, NEVER_PROBED } from '../net/address-policy.ts';
import { canonicalIp, parseIp, unmapIpv4 } from '../net/ip-address.ts';
import { PORT_MAX, PORT_MIN } from '../store/index.ts';
import { inlineCode } from './command.ts';

export type ParsedAddress = { ok: true; ip: string; port: number } | { ok: false; error: string };

const EXAMPLE = '`203.0.113.5:7777` (IPv6: `[2001:db8::5]:7777`)';

/**
 * A game server's `ip:port` as an operator types it. The IP is written canonically, as the API
 * writes a request's IP (canonicalIp), so an expected address compares equal to the one a claim
 * arrives from.
 */
export function parseServerAddress(input: string): ParsedAddress {
  const text = input.trim();
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:[\]]+):(\d+)$/.exec(text);
  if (!match) {
    return { ok: false, error: `${inlineCode(text)} is not an address like ${EXAMPLE}.` };
  }
  const [, host = '', portText = ''] = match;
  const parsed = parseIp(host);
  if (!parsed || parsed.zone !== undefined) {
    return { ok: false, error: `${inlineCode(host)} is not an IP address; use one like ${EXAMPLE}.` };
  }
  const ip = unmapIpv4(parsed);
  // Addresses that never name one host cannot be where a game server claims from.
  if (NEVER_PROBED.has(classifyParsed(ip))) {
    return { ok: false, error: `${inlineCode(host)} is not the address of one server.` };
  }
  const port = /^[1-9]\d{0,4}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= PORT_MIN && port <= PORT_MAX)) {
    return {
      ok: false,
      error: `The port must be a number ${PORT_MIN}..${PORT_MAX} (got ${inlineCode(portText)}).`,
    };
  }
  return { ok: true, ip: canonicalIp(host)!, port };
}

/** `ip:port`, with IPv6 in brackets. */
export function formatAddress(ip: string, port: number | null): string {
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return port === null ? host : `${host}:${port}`;
}
