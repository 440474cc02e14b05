import type { ApiDeps } from '../deps.ts';

/**
 * Whether a seed page may name its seed in its share tags: only a seed that may be shown now. The
 * one-HEXISTS check of seeds:hidden settles most seeds; for one it names (a window, the permanent
 * blocklist, or the set not built yet) the full block check decides, without counting a view.
 * Any failure (Redis down) answers false: the page then names no seed.
 */
export function seedShareable({ store, hiddenSeeds }: Pick<ApiDeps, 'store' | 'hiddenSeeds'>) {
  return async (seed: number): Promise<boolean> => {
    try {
      if (!(await hiddenSeeds.mayBeHidden(seed))) return true;
      return (await store.checkSeedBlock(seed, { countView: false })).kind === 'visible';
    } catch {
      return false;
    }
  };
}
