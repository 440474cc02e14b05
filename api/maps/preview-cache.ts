/**
 * The link-preview pictures (PNG) of one API process: each seed's rendered at most once (renders
 * of one seed in flight are shared), least recently read dropped first, never more than
 * `maxBytes` in all (0 keeps none). Only in memory: a picture is derived from its map in well under
 * a second, so it is not worth Redis memory the maps, reports and claims need; a restart or an
 * eviction costs one render. Its ETag needs no picture (preview-version.ts).
 */
export class PreviewCache {
  readonly #entries = new Map<number, Buffer>();
  readonly #rendering = new Map<number, Promise<Buffer>>();
  #bytes = 0;

  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The held picture of a seed (now the most recently read), or undefined. */
  get(seed: number): Buffer | undefined {
    const png = this.#entries.get(seed);
    if (png === undefined) return undefined;
    this.#entries.delete(seed);
    this.#entries.set(seed, png);
    return png;
  }

  /** The seed's picture, held or made by `render` (once, however many ask meanwhile). */
  async getOrRender(seed: number, render: () => Promise<Buffer>): Promise<Buffer> {
    const held = this.get(seed);
    if (held) return held;
    let pending = this.#rendering.get(seed);
    if (!pending) {
      pending = render()
        .then((png) => this.#keep(seed, png))
        .finally(() => this.#rendering.delete(seed));
      this.#rendering.set(seed, pending);
    }
    return pending;
  }

  #keep(seed: number, png: Buffer): Buffer {
    if (png.length > this.maxBytes) return png;
    this.#entries.set(seed, png);
    this.#bytes += png.length;
    for (const [s, p] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(s);
      this.#bytes -= p.length;
    }
    return png;
  }
}
