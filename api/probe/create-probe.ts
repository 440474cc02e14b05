import { mayProbe } from '../../net/address-policy.ts';
import { formatIp, parseIp, unmapIpv4 } from '../../net/ip-address.ts';
import type { IpAddress } from '../../net/ip-address.ts';
import { probeA2s } from './probe-a2s.ts';
import type { ProbeKindFn, ProbeTarget, SocketFactory } from './probe-kind.ts';
import { unavailable } from './probe-result.ts';
import type { ProbeResult } from './probe-result.ts';

/** Every probe kind by its setting name. A kind only sends; the address policy lives here. */
export const probeKinds = { a2s: probeA2s } as const satisfies Record<string, ProbeKindFn>;

export type ProbeKind = keyof typeof probeKinds;

export function isProbeKind(value: string): value is ProbeKind {
  return Object.hasOwn(probeKinds, value);
}

export interface ProbeOptions {
  /** PROBE_ALLOW_PRIVATE: also probe private, loopback, link-local... targets (tests, LAN). */
  allowPrivate: boolean;
  /** Whole-probe budget in ms; default 2000. */
  timeoutMs?: number;
  /** Probes running at once beyond this answer 'unavailable' at once; default 64. */
  maxInFlight?: number;
  /** Test seam: replaces dgram.createSocket. */
  createSocket?: SocketFactory;
}

export type Probe = (ip: string, port: number, options?: { signal?: AbortSignal }) => Promise<ProbeResult>;

export const DEFAULT_TIMEOUT_MS = 2000;
export const DEFAULT_MAX_IN_FLIGHT = 64;

/**
 * Returns a probe for `kind`. It checks the target against the address policy before any
 * socket exists, bounds concurrency (a flood gets 503s instead of EMFILE for everyone), and
 * resolves every outcome as a ProbeResult, so callers never see a rejection.
 */
export function createProbe(kind: ProbeKind, options: ProbeOptions): Probe {
  if (!isProbeKind(kind)) throw new Error(`unknown probe kind: ${String(kind)}`);
  const run = probeKinds[kind];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) throw new RangeError('timeoutMs must be > 0');
  if (!(Number.isInteger(maxInFlight) && maxInFlight > 0)) throw new RangeError('maxInFlight must be >= 1');
  let inFlight = 0;

  return async (ip, port, { signal } = {}) => {
    // The API validates both; this only keeps a caller bug from reaching a socket.
    if (!Number.isInteger(port) || port < 1 || port > 65535) return unavailable('invalid port');
    const parsed = parseIp(ip);
    if (!parsed) return unavailable('invalid address');
    const { allowed, range } = mayProbe(parsed, options.allowPrivate);
    if (!allowed) return { ok: false, reason: 'private address', range };
    if (inFlight >= maxInFlight) return unavailable('too many probes in flight');
    inFlight++;
    try {
      return await run(toTarget(parsed, port), { timeoutMs, signal, createSocket: options.createSocket });
    } catch (err) {
      return unavailable(err instanceof Error ? err.message : String(err));
    } finally {
      inFlight--;
    }
  };
}

// Mapped forms go out over IPv4 (the host they name); the zone id is kept only where it has a
// meaning (link-local). The canonical literal means dgram never does a name lookup.
function toTarget(parsed: IpAddress, port: number): ProbeTarget {
  const ip = unmapIpv4(parsed);
  const linkLocal = ip.family === 6 && ip.bytes[0] === 0xfe && ((ip.bytes[1] ?? 0) & 0xc0) === 0x80;
  const zone = linkLocal && ip.zone ? `%${ip.zone}` : '';
  return { family: ip.family, address: formatIp(ip) + zone, port };
}
