import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDeps } from '../deps.ts';
import { underApiPrefix } from './api-path.ts';
import { httpsLocation } from './https-redirect.ts';
import { requestObserver } from './request-observer.ts';
import { untrustedForwardingWarning } from './untrusted-forwarding.ts';

/**
 * What every request passes first, on node's request before any routing: the request id, log
 * line and metrics; the warning about forwarded headers from an untrusted peer; the https
 * redirect; then the count of API requests (spec 2.8). Returns whether the request is answered
 * already (redirected).
 */
export function edge({ logger, metrics, requests, config, trustProxy }: ApiDeps) {
  const observe = requestObserver(logger, metrics);
  const checkForwarding = untrustedForwardingWarning(logger, trustProxy, config.TRUST_PROXY);
  /** `path` is the request's path as it arrived; `route` its pattern, if known already. */
  return (req: IncomingMessage, res: ServerResponse, path: string, route?: string): boolean => {
    observe(req, res, path, route);
    checkForwarding(req);
    const https = httpsLocation(req, trustProxy);
    if (https) {
      res.writeHead(301, { Location: https, 'Content-Length': 0 }).end();
      return true;
    }
    if (underApiPrefix(config.API_PREFIX, path)) requests.count();
    return false;
  };
}
