import type { A2sInfo } from './a2s-packet.ts';
import type { AddressRange } from '../../net/address-policy.ts';

/** Reasons that mean "no game server answered there" (API: 403 `no game server`). */
export type NoServerReason = 'timeout' | 'garbage' | 'refused' | 'unreachable';

export type ProbeResult =
  | { ok: true; kind: 'a2s'; info: A2sInfo }
  | { ok: false; reason: NoServerReason; detail?: string }
  /** Target outside the allowed ranges; no packet was sent (API: 403 `private address`). */
  | { ok: false; reason: 'private address'; range: AddressRange }
  /** The check itself could not run (API: 503 `probe unavailable`); says nothing about the target. */
  | { ok: false; reason: 'unavailable'; detail: string };

export type ProbeFailure = Extract<ProbeResult, { ok: false }>;

export type ProbeErrorResponse =
  { status: 403; error: 'no game server' | 'private address' } | { status: 503; error: 'probe unavailable' };

/** Maps a failed probe to the status and `error` body of spec 4.1. */
export function probeErrorResponse(result: ProbeFailure): ProbeErrorResponse {
  switch (result.reason) {
    case 'private address':
      return { status: 403, error: 'private address' };
    case 'unavailable':
      return { status: 503, error: 'probe unavailable' };
    default:
      return { status: 403, error: 'no game server' };
  }
}

export function unavailable(detail: string): ProbeFailure {
  return { ok: false, reason: 'unavailable', detail };
}
