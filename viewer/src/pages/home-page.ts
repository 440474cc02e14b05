import type { AppContext, Page } from '../app-context.ts';
import { h } from '../dom.ts';
import { parseSeed } from '../state/seed.ts';
import { seedForm } from './seed-form.ts';
import { isSeedPage, seedRow } from './seed-row.ts';

// The viewer's front page (/ without a seed): what a seed is, a box to open one with an example,
// the newest seeds, and the way to all of them. Its state is "idle" like a map page without a
// seed, "invalid" after a seed box entry that is not a seed.

const NEWEST = 8;
/** A seed anyone can check the map against: the game's public map dump (facility.md). */
const EXAMPLE_SEED = 224593721;
const NOT_A_SEED = 'A seed is a whole number from 1 to 2147483647.';

function openSeed(ctx: AppContext, main: HTMLElement): HTMLFormElement {
  const hint = h(
    'p',
    { class: 'hint' },
    'A whole number from 1 to 2147483647, for example ',
    h('a', { href: `${ctx.base}/seed/${EXAMPLE_SEED}`, 'data-example': '' }, `seed ${EXAMPLE_SEED}`),
    '.',
  );
  const { form, input, error } = seedForm(
    hint,
    (raw) => {
      const seed = parseSeed(raw);
      if (seed.kind === 'valid') return ctx.navigate(`/?seed=${seed.seed}`);
      error.textContent = seed.kind === 'none' ? 'Enter a seed.' : NOT_A_SEED;
      input.setAttribute('aria-invalid', 'true');
      main.dataset.state = 'invalid';
      input.focus();
    },
    `e.g. ${EXAMPLE_SEED}`,
  );
  form.classList.add('home-seed');
  return form;
}

/** The newest seeds, as the seed list starts; a note instead when they cannot be had. */
function newestSeeds(ctx: AppContext, gone: () => boolean): HTMLElement {
  const list = h('ol', {
    class: 'seed-list home-seeds',
    'aria-labelledby': 'newest-title',
    'data-state': 'loading',
  });
  const note = h('p', { class: 'list-status', role: 'status' }, 'Loading the newest seeds…');
  void ctx
    .fetcher(`/seeds?limit=${NEWEST}`)
    .then((ans) => {
      if (gone()) return;
      if (ans.status !== 200 || !isSeedPage(ans.body)) throw new Error(`status ${ans.status}`);
      list.append(...ans.body.items.map((i) => seedRow(i, ctx.base)));
      note.textContent = ans.body.items.length
        ? ''
        : 'No seeds yet: open any seed above to have its map made.';
      list.dataset.state = 'ready';
    })
    .catch(() => {
      if (gone()) return;
      note.textContent = 'The newest seeds could not be loaded; the full list may still open.';
      list.dataset.state = 'error';
    });
  return h(
    'section',
    { class: 'home-newest', 'aria-labelledby': 'newest-title' },
    h('h2', { id: 'newest-title' }, 'Newest seeds'),
    list,
    note,
    h('p', {}, h('a', { href: `${ctx.base}/seeds`, 'data-all-seeds': '' }, 'All seeds, newest first →')),
  );
}

export function mountHomePage(main: HTMLElement, ctx: AppContext): Page {
  let disposed = false;
  document.title = 'seedblock – SCP: SL map viewer';
  main.append(
    h(
      'div',
      { class: 'home' },
      h('h1', {}, 'SCP: Secret Laboratory facility maps'),
      h(
        'p',
        { class: 'lead', 'data-what-is-a-seed': '' },
        'A seed is the number a round of SCP: Secret Laboratory builds its facility from: the same seed always gives the same rooms, doors and item spawns, so its map shows where everything is.',
      ),
      openSeed(ctx, main),
      newestSeeds(ctx, () => disposed),
    ),
  );
  main.dataset.state = 'idle';
  return {
    unmount() {
      disposed = true;
    },
  };
}
