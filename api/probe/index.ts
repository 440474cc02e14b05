// Public surface of the game-server probe (spec 4.1 self-claim check).
export {
  createProbe,
  isProbeKind,
  probeKinds,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_IN_FLIGHT,
} from './create-probe.ts';
export type { Probe, ProbeKind, ProbeOptions } from './create-probe.ts';
export { probeErrorResponse } from './probe-result.ts';
export type { NoServerReason, ProbeErrorResponse, ProbeFailure, ProbeResult } from './probe-result.ts';
export type { A2sInfo } from './a2s-packet.ts';
export type { KindOptions, ProbeKindFn, ProbeTarget, SocketFactory } from './probe-kind.ts';
