import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDeps } from '../deps.ts';
import { underApiPrefix } from './api-path.ts';
import { httpsRedirect } from './https-redirect.ts';
import { sendJson } from './json-answer.ts';
import { requestObserver, type ObservedRoute } from './request-observer.ts';
import { untrustedForwardingWarning } from './untrusted-forwarding.ts';

/**
 * What every request passes first, on node's request before any routing: the request id, log
 * line and metrics; the warning about forwarded headers from an untrusted peer; the https
 * redirect; then the count of API requests (spec 2.8). Returns whether the request is answered
 * already (redirected, or 400 for a host no redirect may name).
 */
export function edge({ logger, metrics, requests, config, trustProxy }: ApiDeps) {
  const observe = requestObserver(logger, metrics);
  const checkForwarding = untrustedForwardingWarning(logger, trustProxy, config.TRUST_PROXY);
  /** `path` is the request's path as it arrived; `route` the table's route, if known already. */
  return (req: IncomingMessage, res: ServerResponse, path: string, route?: ObservedRoute): boolean => {
    observe(req, res, path, route);
    checkForwarding(req);
    const https = httpsRedirect(req, trustProxy, config.PUBLIC_URL);
    if (https && 'badHost' in https) {
      sendJson(res, 400, { error: 'invalid request' }, { 'Cache-Control': 'no-store' });
      return true;
    }
    if (https) {
      // Without PUBLIC_URL the host may come from X-Forwarded-Host, which some CDNs pass on from
      // the client: no shared cache may keep a redirect to it for everyone else.
      res
        .writeHead(301, { Location: https.location, 'Cache-Control': 'no-store', 'Content-Length': 0 })
        .end();
      return true;
    }
    if (underApiPrefix(config.API_PREFIX, path)) requests.count();
    return false;
  };
}
