import { createHash } from 'node:crypto';

/** A rendered link-preview picture: its PNG bytes and their strong ETag. */
export interface Preview {
  png: Buffer;
  etag: string;
}

/**
 * The link-preview pictures of one API process: each seed's rendered at most once for this
 * process's generator version (renders of one seed in flight are shared), least recently read
 * dropped first, never more than `maxBytes` of PNG in all (0 keeps none). Only in memory: a picture
 * is derived from its map in well under a second, so it is not worth Redis memory the maps,
 * reports and claims need; a restart or an eviction costs one render.
 */
export class PreviewCache {
  readonly #entries = new Map<string, Preview>();
  readonly #rendering = new Map<string, Promise<Preview>>();
  #bytes = 0;

  readonly maxBytes: number;
  readonly generatorVersion: string;

  constructor(maxBytes: number, generatorVersion: string) {
    this.maxBytes = maxBytes;
    this.generatorVersion = generatorVersion;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The held picture of a seed (now the most recently read), or undefined. */
  get(seed: number): Preview | undefined {
    const key = this.#key(seed);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** The seed's picture, held or made by `render` (once, however many ask meanwhile). */
  async getOrRender(seed: number, render: () => Promise<Buffer>): Promise<Preview> {
    const held = this.get(seed);
    if (held) return held;
    const key = this.#key(seed);
    let pending = this.#rendering.get(key);
    if (!pending) {
      pending = render()
        .then((png) =>
          this.#keep(key, {
            png,
            etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 22)}"`,
          }),
        )
        .finally(() => this.#rendering.delete(key));
      this.#rendering.set(key, pending);
    }
    return pending;
  }

  #key(seed: number): string {
    return `${this.generatorVersion}:${seed}`;
  }

  #keep(key: string, preview: Preview): Preview {
    if (preview.png.length > this.maxBytes) return preview;
    this.#entries.set(key, preview);
    this.#bytes += preview.png.length;
    for (const [k, p] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= p.png.length;
    }
    return preview;
  }
}
