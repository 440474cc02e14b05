import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { clientIp } from '../http/client-ip.ts';
import { HttpError } from '../http/http-error.ts';
import { readJson } from '../http/json-body.ts';
import { requireMinimumPluginVersion } from '../http/plugin-version.ts';
import { parseOr400, PluginClaimBodySchema, type PluginClaimBody } from '../schemas.ts';
import type { Handler } from './route.ts';

/**
 * POST /plugin/v1/claim (4.4): registers the game server at the request IP and the given port
 * with a one-time code from the chat bot. 200 verified, 202 review, 401 invalid code, 403 claim
 * rejected, 426 plugin_outdated, 429 past 10 per minute per IP.
 */
export function pluginClaim({ store, trustProxy }: ApiDeps): Handler[] {
  const validate: RequestHandler = (req, _res, next) => {
    req.body = parseOr400(PluginClaimBodySchema, req.body);
    next();
  };

  return [
    readJson,
    validate,
    requireMinimumPluginVersion(store),
    async (req, res) => {
      const body = req.body as PluginClaimBody;
      const result = await store.claimWithCode({ ...body, ip: clientIp(req, trustProxy) });
      // A verified answer carries the credential, shown this once: no cache may keep it (nor the
      // review answer, which is about one code).
      res.set('Cache-Control', 'no-store');
      switch (result.status) {
        case 'verified':
          res.json(result);
          return;
        case 'review':
          res.status(202).json(result);
          return;
        case 'invalid code':
          throw new HttpError(401, 'invalid code');
        case 'claim rejected':
          throw new HttpError(403, 'claim rejected');
      }
    },
  ];
}
