import type { Store } from '../../store/index.ts';

/**
 * The one-HEXISTS visibility check of maps this process holds (store mayBeHidden), trusted only once
 * this process has built seeds:hidden itself (the map upkeep does, at start): until then, and for
 * any seed it names, the full check of the window and the blocklist decides.
 */
export class HiddenSeeds {
  #built = false;

  constructor(private readonly store: Store) {}

  async build(): Promise<number> {
    const hidden = await this.store.buildHiddenSeeds();
    this.#built = true;
    return hidden;
  }

  /** False when the seed is surely visible now; true when checkSeedBlock must say. */
  mayBeHidden(seed: number): Promise<boolean> {
    return this.#built ? this.store.mayBeHidden(seed) : Promise.resolve(true);
  }
}
