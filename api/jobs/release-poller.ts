import cron from 'node-cron';
import { z } from 'zod';
import { failureFields } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

// The latest plugin release, from the release host's "latest release" JSON (GitHub releases API
// shape), fetched at start and hourly, and kept in Redis for every process.

const LatestReleaseSchema = z.object({
  tag_name: z.string().regex(/^v?\d+\.\d+\.\d+$/),
  html_url: z.url(),
});

export async function pollLatestRelease({ store, config, logger }: ApiDeps): Promise<void> {
  if (!config.RELEASES_URL) return;
  try {
    const response = await fetch(config.RELEASES_URL, {
      headers: { accept: 'application/vnd.github+json', 'user-agent': 'seedblock/1' },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`release host answered ${response.status}`);
    const release = LatestReleaseSchema.parse(await response.json());
    await store.saveLatestRelease({
      latest: release.tag_name.replace(/^v/, ''),
      downloadUrl: release.html_url,
    });
    logger.info({ latest: release.tag_name }, 'latest plugin release updated');
  } catch (err) {
    logger.warn(failureFields(err), 'could not read the latest plugin release; keeping what is stored');
  }
}

export function startReleasePoller(deps: ApiDeps): { stop(): void; firstPoll: Promise<void> } {
  if (!deps.config.RELEASES_URL) return { stop: () => {}, firstPoll: Promise.resolve() };
  const task = cron.schedule('0 * * * *', () => pollLatestRelease(deps));
  return { stop: () => void task.stop(), firstPoll: pollLatestRelease(deps) };
}
