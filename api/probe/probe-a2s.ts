import dgram from 'node:dgram';
import type { Socket } from 'node:dgram';
import type { KindOptions, ProbeTarget } from './probe-kind.ts';
import { buildInfoRequest, parseSimplePacket, SIMPLE_HEADER, SPLIT_HEADER } from './a2s-packet.ts';
import type { A2sReply } from './a2s-packet.ts';
import { SplitAssembler } from './a2s-split.ts';
import { unavailable } from './probe-result.ts';
import type { NoServerReason, ProbeResult } from './probe-result.ts';

// A server that keeps answering with new challenges is not answering the query.
const MAX_CHALLENGES = 2;

// ICMP errors from the far side mean nothing serves that port. Anything else (EMFILE, ENETUNREACH
// when we lack a route, EACCES...) is our own trouble, so it is 'unavailable', never a refusal.
const NO_SERVER_ERRORS: Readonly<Record<string, NoServerReason>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
};

function fromError(err: unknown): ProbeResult {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === undefined ? undefined : NO_SERVER_ERRORS[code];
  if (reason) return { ok: false, reason, detail: code };
  return unavailable(err instanceof Error ? err.message : String(err));
}

/**
 * One A2S_INFO exchange on its own UDP socket. The socket is connected so the kernel drops
 * datagrams from any other source and reports ICMP port unreachable as ECONNREFUSED; it is
 * closed on every outcome. Resolves, never rejects.
 */
export function probeA2s(target: ProbeTarget, options: KindOptions): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let socket: Socket | undefined;
    let settled = false;
    let challenges = 0;
    const split = new SplitAssembler();

    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      try {
        socket?.close();
      } catch {
        // already closed, e.g. after a bind failure
      }
      resolve(result);
    };
    const onAbort = (): void => finish(unavailable('aborted'));
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), options.timeoutMs);

    const send = (packet: Buffer): void => {
      try {
        socket?.send(packet, (err) => err && finish(fromError(err)));
      } catch (err) {
        finish(fromError(err));
      }
    };

    const onReply = (reply: A2sReply): void => {
      if (reply.kind === 'info') return finish({ ok: true, kind: 'a2s', info: reply.info });
      if (reply.kind === 'garbage') return finish({ ok: false, reason: 'garbage', detail: reply.detail });
      if (++challenges > MAX_CHALLENGES)
        return finish({ ok: false, reason: 'garbage', detail: 'endless challenge' });
      send(buildInfoRequest(reply.challenge));
    };

    const onMessage = (msg: Buffer): void => {
      const header = msg.length >= 4 ? msg.readInt32LE(0) : 0;
      if (header === SIMPLE_HEADER) return onReply(parseSimplePacket(msg));
      if (header !== SPLIT_HEADER) return finish({ ok: false, reason: 'garbage', detail: 'bad header' });
      const step = split.add(msg);
      if (step.status === 'complete') onReply(parseSimplePacket(step.packet));
      else if (step.status === 'garbage') finish({ ok: false, reason: 'garbage', detail: step.detail });
    };

    if (options.signal?.aborted) return finish(unavailable('aborted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      socket = (options.createSocket ?? dgram.createSocket)(target.family === 4 ? 'udp4' : 'udp6');
      // Kept for the socket's whole life: an 'error' without a listener would crash the process.
      socket.on('error', (err) => finish(fromError(err)));
      socket.on('message', (msg) => {
        if (!settled) onMessage(msg);
      });
      // Node passes connect failures to this callback instead of emitting 'error'.
      socket.connect(target.port, target.address, (err?: Error) => {
        if (err) finish(fromError(err));
        else if (!settled) send(buildInfoRequest());
      });
    } catch (err) {
      finish(unavailable(err instanceof Error ? err.message : String(err)));
    }
  });
}
