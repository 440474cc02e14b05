import dgram from 'node:dgram';
import { isIP } from 'node:net';
import net from 'node:net';

// A safety net under every test file: a socket of this process may only reach 127.0.0.0/8, ::1
// or localhost. A test (or a bug) that aims anywhere else fails loudly instead of sending.

function isLoopback(host: unknown): boolean {
  if (host === undefined || host === null || host === '' || host === 'localhost') return true;
  const text = String(host).replace(/^\[|\]$/g, '');
  if (isIP(text) === 4) return text.startsWith('127.');
  if (isIP(text) === 6) return text === '::1' || /^::ffff:127\./i.test(text);
  return false;
}

function refuse(what: string, host: unknown): never {
  throw new Error(`loopback guard: ${what} to ${String(host)} refused (tests only reach loopback)`);
}

// A test worker that runs several files in turn (isolate: false) runs this file before each of
// them: the sockets are wrapped once, not once more per file.
const INSTALLED = Symbol.for('seedblock.loopbackGuard');
const registry = globalThis as { [INSTALLED]?: true };

function install(): void {
  const udpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function (
    this: dgram.Socket,
    port: number,
    address?: unknown,
    ...rest: unknown[]
  ) {
    if (typeof address === 'string' && !isLoopback(address)) refuse('UDP connect', address);
    return (udpConnect as (...a: unknown[]) => void).call(this, port, address, ...rest);
  } as typeof udpConnect;

  const udpSend = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function (this: dgram.Socket, ...args: unknown[]) {
    const address = args.find((a, i) => i > 0 && typeof a === 'string');
    if (address !== undefined && !isLoopback(address)) refuse('UDP send', address);
    return (udpSend as (...a: unknown[]) => void).apply(this, args);
  } as typeof udpSend;

  const tcpConnect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const options = (Array.isArray(first) ? first[0] : first) as { host?: unknown; path?: unknown } | number;
    const host =
      typeof options === 'object' && options !== null
        ? options.path
          ? undefined
          : options.host
        : typeof args[1] === 'string'
          ? args[1]
          : undefined;
    if (!isLoopback(host)) refuse('TCP connect', host);
    return (tcpConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof tcpConnect;
}

if (!registry[INSTALLED]) {
  install();
  registry[INSTALLED] = true;
}
