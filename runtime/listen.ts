import type { Server } from 'node:net';
import { ConfigError } from './config.ts';

// Where a server listens: HOST `::` is both IPv6 and IPv4 (v4 peers show as ::ffff:a.b.c.d,
// which clientIp folds back to dotted IPv4); a host without IPv6 gets IPv4 only.

const DUAL_STACK = '::';

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ipv6Only: false }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Listens on `host`:`port`. `onIpv4Only` is told when `::` fell back to 0.0.0.0. A busy port is a
 * ConfigError naming PORT and the fix (one line, no stack).
 */
export async function listen(
  server: Server,
  port: number,
  host: string,
  onIpv4Only: (reason: string) => void,
): Promise<void> {
  try {
    await listenOnce(server, port, host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (host === DUAL_STACK && (code === 'EAFNOSUPPORT' || code === 'EADDRNOTAVAIL')) {
      onIpv4Only(code);
      return listen(server, port, '0.0.0.0', onIpv4Only);
    }
    if (code === 'EADDRINUSE') {
      throw new ConfigError(
        `PORT ${port} is already in use (host ${host}): stop what listens there, or set PORT to a free port`,
      );
    }
    throw err;
  }
}

/** An address a local client reaches a server listening on `host` at. */
export function localAddress(host: string): string {
  if (host === '0.0.0.0' || host === DUAL_STACK) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
