import type { RequestHandler } from 'express';
import { isBelowMinimum, type Store } from '../../store/index.ts';
import { HttpError } from './http-error.ts';

/**
 * Refuses a plugin below the operator's minimum with 426 `plugin_outdated` (spec 4.4, 4.5).
 * Runs after the body is parsed: it reads `pluginVersion` from the validated body.
 */
export function requireMinimumPluginVersion(store: Store): RequestHandler {
  return async (req, _res, next) => {
    const version = (req.body as { pluginVersion?: unknown } | undefined)?.pluginVersion;
    if (typeof version !== 'string') return next();
    const info = await store.getVersionInfo();
    if (info.minimum && isBelowMinimum(version, info.minimum)) {
      return next(
        new HttpError(426, 'plugin_outdated', {
          minimum: info.minimum,
          downloadUrl: info.downloadUrl ?? '',
        }),
      );
    }
    next();
  };
}
