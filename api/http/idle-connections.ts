import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { canonicalIp } from '../../net/ip-address.ts';
import { ipLimitKey } from './rate-limit.ts';
import { TIMEOUT_CHECK_MS } from './slow-clients.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * How long a connection may stay idle before it counts against its peer's cap: time for a new
 * connection's request (or a kept-alive one's next) to arrive, so a client that opens many
 * connections at once and sends on each at once never loses one.
 */
export const IDLE_GRACE_MS = 1_000;

/** One peer address (IPv4, or an IPv6 /56 as ipLimitKey groups it) and its connections. */
interface Peer {
  key: string;
  connections: number;
  /** Its connections without a request under way, the longest idle first (a Set keeps order). */
  idle: Set<Socket>;
  /** How many of those have never sent a complete request. */
  silent: number;
  /** Its connections that carried a request forwarded by a trusted proxy: while any, exempt. */
  forwarding: number;
}

interface Connection {
  peer: Peer;
  /** Requests received and not yet answered (more than one only when pipelined). */
  inFlight: number;
  silent: boolean;
  forwarded: boolean;
  /** When it last became idle (performance.now()). */
  since: number;
}

export interface IdleLimits {
  /** MAX_CONNECTIONS: sockets of the process. */
  max: number;
  /** MAX_IDLE_CONNECTIONS_PER_PEER. */
  perPeer: number;
  trust: TrustProxy;
}

/** The peer's key: its address written canonically, grouped as the per-IP limits group it. */
const peerKey = (address: string): string => ipLimitKey(canonicalIp(address) ?? address);

/**
 * Caps the connections one peer address holds open without a request under way (idle: a new one
 * that has sent no complete request yet, or a kept-alive one between requests), so that one
 * address cannot hold the sockets every client shares (MAX_CONNECTIONS). Node's own timeouts close
 * them only later (HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS), and a long keep-alive makes an idle
 * connection cheap to hold: one request a minute keeps it.
 *
 * - Silent connections: a peer holds at most `perPeer` that have been silent past IDLE_GRACE_MS;
 *   checked every TIMEOUT_CHECK_MS, the oldest beyond it are closed.
 * - When the process holds `max` sockets, a new one takes the place of the longest idle
 *   connection of a peer holding more than `perPeer` idle ones (silent or kept alive; the grace
 *   does not apply: someone is waiting), unless that peer is its own; without such a peer it is
 *   closed, as node closes it past maxConnections.
 *
 * A trusted proxy (TRUST_PROXY) is exempt while one of its connections has forwarded a request
 * (X-Forwarded-For): all of its clients share its address, and its own limits apply. A peer that
 * has forwarded nothing is capped like any other, trusted or not.
 */
export function capIdleConnections(server: Server, { max, perPeer, trust }: IdleLimits): void {
  const connections = new Map<Socket, Connection>();
  const peers = new Map<string, Peer>();
  /** Peers not exempt that hold more than `perPeer` idle connections. */
  const overCap = new Set<Peer>();

  function judge(peer: Peer) {
    if (peer.forwarding === 0 && peer.idle.size > perPeer) overCap.add(peer);
    else overCap.delete(peer);
  }

  function becomeIdle(socket: Socket, conn: Connection) {
    conn.since = performance.now();
    conn.peer.idle.add(socket);
    judge(conn.peer);
  }

  /** Drops a socket from the books (once, whether it closed or is being closed here). */
  function forget(socket: Socket) {
    const conn = connections.get(socket);
    if (conn === undefined) return;
    connections.delete(socket);
    const { peer } = conn;
    if (peer.idle.delete(socket) && conn.silent) peer.silent--;
    if (conn.forwarded) peer.forwarding--;
    if (--peer.connections === 0) {
      peers.delete(peer.key);
      overCap.delete(peer);
    } else judge(peer);
  }

  function close(socket: Socket) {
    forget(socket);
    socket.destroy();
  }

  /** The process is over `max` with `newcomer`: someone's idle connection gives way, or it does. */
  function makeRoom(newcomer: Socket) {
    const own = connections.get(newcomer)!.peer;
    for (const peer of overCap) {
      if (peer === own) continue;
      close(peer.idle.values().next().value!);
      return;
    }
    close(newcomer);
  }

  function socketClosed(this: Socket) {
    forget(this);
  }

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // closed already
    const key = peerKey(address);
    let peer = peers.get(key);
    if (peer === undefined) {
      peer = { key, connections: 0, idle: new Set(), silent: 0, forwarding: 0 };
      peers.set(key, peer);
    }
    peer.connections++;
    peer.silent++;
    const conn: Connection = { peer, inFlight: 0, silent: true, forwarded: false, since: 0 };
    connections.set(socket, conn);
    socket.on('close', socketClosed);
    becomeIdle(socket, conn);
    if (connections.size > max) makeRoom(socket);
  });
  // Node itself closes sockets past maxConnections before anyone sees them: one more than `max`
  // reaches the listener above, which makes room or closes it.
  server.maxConnections = max + 1;

  // Shared listeners, no closure per request (as limitBodies): `this` is the response.
  function answered(this: ServerResponse) {
    const socket = this.req.socket;
    const conn = connections.get(socket);
    if (conn !== undefined && --conn.inFlight === 0 && !socket.destroyed) becomeIdle(socket, conn);
  }
  // Before the request listener, which may answer at once.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const conn = connections.get(socket);
    if (conn === undefined) return;
    const { peer } = conn;
    if (conn.inFlight++ === 0) {
      peer.idle.delete(socket);
      if (conn.silent) {
        conn.silent = false;
        peer.silent--;
      }
    }
    if (!conn.forwarded && req.headers['x-forwarded-for'] !== undefined && trust(socket.remoteAddress!, 0)) {
      conn.forwarded = true;
      peer.forwarding++;
    }
    judge(peer);
    res.on('finish', answered);
  });

  const sweep = setInterval(() => {
    const before = performance.now() - IDLE_GRACE_MS;
    for (const peer of overCap) {
      for (const socket of peer.idle) {
        if (peer.silent <= perPeer) break;
        const conn = connections.get(socket)!;
        if (conn.since > before) break; // the rest are younger still
        if (conn.silent) close(socket);
      }
    }
  }, TIMEOUT_CHECK_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
