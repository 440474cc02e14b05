import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Servers shutting down: every answer they write from then on closes its connection. */
const draining = new WeakSet<Server>();

/**
 * Starts a server's shutdown for its answers. `server.close()` only closes the connections idle
 * at that moment: a keep-alive connection whose request finishes later would hold the close (and
 * the Redis connection, and the process) open until the client leaves.
 */
export function drain(server: Server): void {
  draining.add(server);
}

/**
 * Called by writeHead (IdentifiedResponse): an answer of a server shutting down says
 * `Connection: close`, and its socket ends with it. Looked up when the answer is written rather
 * than kept per request: a set of the responses in flight (an add and a delete per request) kept
 * each response alive through young-generation GCs, which then cost a fifth of a report's CPU.
 */
export function closeIfDraining(res: ServerResponse): void {
  const server = (res.req.socket as (Socket & { server?: Server }) | null)?.server;
  if (server !== undefined && draining.has(server)) res.shouldKeepAlive = false;
}
