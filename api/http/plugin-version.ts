import { isBelowMinimum, type Store } from '../../store/index.ts';
import { HttpError } from './http-error.ts';

/** 426 `plugin_outdated` (spec 4.4, 4.5); `downloadUrl` is `""` while the release page is unknown. */
export const pluginOutdated = (minimum: string, downloadUrl: string | null) =>
  new HttpError(426, 'plugin_outdated', { minimum, downloadUrl: downloadUrl ?? '' });

/** Refuses a plugin below the operator's minimum (a request without `pluginVersion` passes). */
export async function checkPluginMinimum(store: Store, version: unknown): Promise<void> {
  if (typeof version !== 'string') return;
  const info = await store.getVersionInfo();
  if (info.minimum && isBelowMinimum(version, info.minimum))
    throw pluginOutdated(info.minimum, info.downloadUrl);
}
