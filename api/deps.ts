import type { Config } from '../store/config.ts';
import type { Store } from '../store/index.ts';
import type { Logger } from './logger.ts';
import type { Probe } from './probe/index.ts';

/** What every route and job of the API is built from. */
export interface ApiDeps {
  config: Config;
  store: Store;
  logger: Logger;
  /** Confirms a game server answers at an address (self-claim). */
  probe: Probe;
}
