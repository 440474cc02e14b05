import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { requestHost } from './https-redirect.ts';

/**
 * The origin absolute URLs in pages name (a seed page's share tags: og:url, og:image): PUBLIC_URL
 * when set; else the host the client asked for only when it is provably ours: the address its
 * connection reached (or `localhost` on a loopback connection), as a plain host[:port] that passes
 * the https redirect's check; else null, and a page names none. Any other name, Host or a
 * proxy's X-Forwarded-Host, is the client's choice (`Host: evil.example`), and a shared cache or a
 * chat preview would show it to others: a deployment with a public name sets PUBLIC_URL.
 */
export function publicOrigin(req: IncomingMessage, publicUrl: string | undefined): string | null {
  if (publicUrl) return publicUrl;
  const host = requestHost(req, () => false);
  const local = req.socket.localAddress;
  if (host === null || local === undefined) return null;
  const name = hostName(host);
  const ours = name === 'localhost' ? isLoopback(local) : isIP(name) !== 0 && sameAddress(name, local);
  return ours ? `http://${host}` : null;
}

/** A host[:port] without its port, and an IPv6 literal without its brackets. */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/** The socket's local address may be IPv4-mapped (`::ffff:127.0.0.1`) on a dual-stack listener. */
const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.)/i, '');
const sameAddress = (a: string, b: string) => unmapped(a).toLowerCase() === unmapped(b).toLowerCase();
const isLoopback = (address: string) => /^(127\.|::1$)/.test(unmapped(address));
