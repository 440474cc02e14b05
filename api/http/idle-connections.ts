import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { canonicalIp } from '../../net/ip-address.ts';
import { ipLimitKey } from './rate-limit.ts';
import { TIMEOUT_CHECK_MS } from './slow-clients.ts';
import type { TrustProxy } from './trust-proxy.ts';

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
  /** The sweep during whose interval it last became idle (IdleBooks.sweep). */
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
 * - Silent connections: a peer holds at most `perPeer` that have been silent for a whole sweep
 *   interval (TIMEOUT_CHECK_MS, a second): the oldest beyond it are closed at the next sweep. The
 *   interval is a new connection's time for its request to arrive, so a client that opens many
 *   connections and sends on each at once never loses one.
 * - When the process holds `max` sockets, a new one takes the place of the longest idle
 *   connection of a peer holding more than `perPeer` idle ones (silent or kept alive; the grace
 *   does not apply: someone is waiting), unless that peer is its own; without such a peer it is
 *   closed, as node closes it past maxConnections.
 *
 * A trusted proxy (TRUST_PROXY) is exempt while one of its connections has forwarded a request
 * (X-Forwarded-For): all of its clients share its address, and its own limits apply. A peer that
 * has forwarded nothing is capped like any other, trusted or not.
 *
 * Returns what wraps the server's request listener, as limitBodies does: each request is reported
 * before it is handled (a second listener would cost every request a copy of the listener list).
 */
export function capIdleConnections(
  server: Server,
  limits: IdleLimits,
): (next: RequestListener) => RequestListener {
  const books = new IdleBooks(limits);
  // Shared listeners, no closure per socket or request (as limitBodies).
  function closed(this: Socket) {
    books.forget(this);
  }
  function answered(this: ServerResponse) {
    books.answered(this.req.socket);
  }
  // Node itself closes sockets past maxConnections before anyone sees them: one more than `max`
  // reaches the books, which make room or close it.
  server.maxConnections = limits.max + 1;
  server.on('connection', (socket: Socket) => {
    if (books.opened(socket)) socket.on('close', closed);
  });
  const sweep = setInterval(() => books.sweep(), TIMEOUT_CHECK_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  // Before the request is handled, which may answer it at once.
  return (next) => (req, res) => {
    if (books.requested(req)) res.on('finish', answered);
    next(req, res);
  };
}

/** The process's connections by peer, and what the cap does with them (capIdleConnections). */
class IdleBooks {
  readonly #connections = new Map<Socket, Connection>();
  readonly #peers = new Map<string, Peer>();
  /** Peers not exempt that hold more than `perPeer` idle connections. */
  readonly #overCap = new Set<Peer>();
  readonly #limits: IdleLimits;
  /** Sweeps so far: a clock with no call on the hot path. */
  #sweeps = 0;

  constructor(limits: IdleLimits) {
    this.#limits = limits;
  }

  /** A new connection, idle and silent; false when it is closed already. */
  opened(socket: Socket): boolean {
    const address = socket.remoteAddress;
    if (address === undefined) return false;
    const key = peerKey(address);
    let peer = this.#peers.get(key);
    if (peer === undefined) {
      peer = { key, connections: 0, idle: new Set(), silent: 0, forwarding: 0 };
      this.#peers.set(key, peer);
    }
    peer.connections++;
    peer.silent++;
    const conn: Connection = { peer, inFlight: 0, silent: true, forwarded: false, since: this.#sweeps };
    this.#connections.set(socket, conn);
    this.#becomeIdle(socket, conn);
    if (this.#connections.size > this.#limits.max) this.#makeRoom(peer, socket);
    return true;
  }

  /** A request's headers have arrived; true when its answer is to be reported (answered). */
  requested(req: IncomingMessage): boolean {
    const socket = req.socket;
    const conn = this.#connections.get(socket);
    if (conn === undefined) return false;
    const { peer } = conn;
    if (conn.inFlight++ === 0) {
      peer.idle.delete(socket);
      if (conn.silent) {
        conn.silent = false;
        peer.silent--;
      }
    }
    const forwarded = req.headers['x-forwarded-for'] !== undefined;
    if (!conn.forwarded && forwarded && this.#limits.trust(socket.remoteAddress ?? '', 0)) {
      conn.forwarded = true;
      peer.forwarding++;
    }
    this.#judge(peer);
    return true;
  }

  /** An answer on `socket` is sent: once none is left under way, the connection is idle again. */
  answered(socket: Socket): void {
    const conn = this.#connections.get(socket);
    if (conn !== undefined && --conn.inFlight === 0 && !socket.destroyed) this.#becomeIdle(socket, conn);
  }

  /** Closes, in each peer over the cap, its oldest connections silent a whole interval beyond it. */
  sweep(): void {
    // Idle since before the previous sweep: for one whole interval at least.
    const before = ++this.#sweeps - 1;
    for (const peer of this.#overCap) {
      for (const socket of peer.idle) {
        if (peer.silent <= this.#limits.perPeer) break;
        const conn = this.#connections.get(socket)!;
        if (conn.since >= before) break; // the rest are younger still
        if (conn.silent) this.#close(socket);
      }
    }
  }

  #judge(peer: Peer) {
    if (peer.forwarding === 0 && peer.idle.size > this.#limits.perPeer) this.#overCap.add(peer);
    else this.#overCap.delete(peer);
  }

  #becomeIdle(socket: Socket, conn: Connection) {
    conn.since = this.#sweeps;
    conn.peer.idle.add(socket);
    this.#judge(conn.peer);
  }

  /** The process is over `max` with a newcomer: someone's idle connection gives way, or it does. */
  #makeRoom(own: Peer, newcomer: Socket) {
    for (const peer of this.#overCap) {
      if (peer === own) continue;
      this.#close(peer.idle.values().next().value!);
      return;
    }
    this.#close(newcomer);
  }

  #close(socket: Socket) {
    this.forget(socket);
    socket.destroy();
  }

  /** Drops a socket from the books (once, whether it closed or is being closed here). */
  forget(socket: Socket): void {
    const conn = this.#connections.get(socket);
    if (conn === undefined) return;
    this.#connections.delete(socket);
    const { peer } = conn;
    if (peer.idle.delete(socket) && conn.silent) peer.silent--;
    if (conn.forwarded) peer.forwarding--;
    if (--peer.connections === 0) {
      this.#peers.delete(peer.key);
      this.#overCap.delete(peer);
    } else this.#judge(peer);
  }
}
