import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../runtime/logger.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * Warns once per process when a request carries X-Forwarded-For from a peer `TRUST_PROXY` does
 * not trust. Such a header is ignored (clientIp), which is right for a client forging it, but
 * behind a CDN or load balancer missing from `TRUST_PROXY` it means every client has the proxy's
 * address and shares its per-IP limits. A warning, not a refusal to serve: one request cannot
 * tell a forger from a misconfigured proxy, and a refusal would hand every client an off switch.
 */
export function untrustedForwardingWarning(logger: Logger, trust: TrustProxy, setting: unknown) {
  let warned = false;
  return (req: IncomingMessage): void => {
    if (warned || req.headers['x-forwarded-for'] === undefined) return;
    const peer = req.socket.remoteAddress ?? '';
    if (trust(peer, 0)) return;
    warned = true;
    logger.warn(
      { peer, trustProxy: String(setting) },
      'X-Forwarded-For from a peer TRUST_PROXY does not trust is ignored: every client behind that ' +
        'peer shares its address and per-IP limits. Behind a CDN or load balancer, add its ' +
        'addresses to TRUST_PROXY (docs/architecture.md, "The CDN in front"). Logged once per process.',
    );
  };
}
