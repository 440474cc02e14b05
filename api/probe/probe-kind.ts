import type { Socket } from 'node:dgram';
import type { ProbeResult } from './probe-result.ts';

// The contract every probe kind implements; the factory owns policy, limits and validation.

/** Where to send: an IP literal already cleared by the address policy (never a host name). */
export interface ProbeTarget {
  family: 4 | 6;
  address: string;
  port: number;
}

export type SocketFactory = (type: 'udp4' | 'udp6') => Socket;

export interface KindOptions {
  /** Budget for the whole exchange, every round included. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Seam for tests; defaults to dgram.createSocket. */
  createSocket?: SocketFactory;
}

/** A probe kind: resolves every outcome (including local failures as 'unavailable'), never rejects. */
export type ProbeKindFn = (target: ProbeTarget, options: KindOptions) => Promise<ProbeResult>;
