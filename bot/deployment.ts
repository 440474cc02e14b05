import type { Config } from '../runtime/config.ts';

// Where this deployment is reached, for the texts that name it: the report URL in /httpkey, the
// viewer and the API reference in /help.

export interface Deployment {
  /** PUBLIC_URL: the https origin clients use; null when the operator did not set it. */
  publicUrl: string | null;
  /** API_PREFIX: where the spec's paths live (`/api`). */
  apiPrefix: string;
}

export function deploymentOf(config: Pick<Config, 'PUBLIC_URL' | 'API_PREFIX'>): Deployment {
  return { publicUrl: config.PUBLIC_URL ?? null, apiPrefix: config.API_PREFIX };
}

/**
 * A path of the service as chat text: the full URL with PUBLIC_URL, else the path in code and
 * where it lives (the bot cannot know the host).
 */
export function serviceLink({ publicUrl }: Deployment, path: string): string {
  return publicUrl ? `${publicUrl}${path}` : `\`${path}\` on this service's address`;
}

/** A path of the spec's API (`/v1/servers/report`) as chat text, with the API prefix. */
export function apiLink(deployment: Deployment, path: string): string {
  return serviceLink(deployment, `${deployment.apiPrefix}${path}`);
}
