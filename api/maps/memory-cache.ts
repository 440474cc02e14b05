import { brotliDecompressSync } from 'node:zlib';
import type { MapBodies } from '../../store/index.ts';

/** A map's bytes as one API process holds them: the stored codings, and the JSON once asked for. */
export interface MapBytes extends MapBodies {
  json?: Buffer;
}

/** Where a map read found its bytes: this process's memory, the map cache in Redis, or a rebuild. */
export type MapSource = 'memory' | 'cache' | 'rebuilt';

const size = (m: MapBytes) => m.br.length + m.gz.length + (m.json?.length ?? 0);

/**
 * The hot map bytes of one API process, least recently read dropped first, never more than
 * `maxBytes` of bodies in all (0 keeps none). A read of a held map is then one small Redis round
 * trip (the block check) plus these bytes. Seeds read from here are remembered, in read order,
 * until `takeReads` hands them to the map cache in Redis, whose LRU order should follow them.
 */
export class MapMemoryCache {
  readonly #entries = new Map<number, MapBytes>();
  readonly #reads = new Set<number>();
  #bytes = 0;
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The held bytes of a seed (now the most recently read), or undefined. */
  get(seed: number): MapBytes | undefined {
    const entry = this.#entries.get(seed);
    if (entry === undefined) return undefined;
    this.#entries.delete(seed);
    this.#entries.set(seed, entry);
    this.#reads.delete(seed);
    this.#reads.add(seed);
    return entry;
  }

  /** Holds a map's bytes if they fit, dropping the least recently read; returns them either way. */
  keep(seed: number, bytes: MapBytes): MapBytes {
    this.#drop(seed);
    if (size(bytes) <= this.maxBytes) {
      this.#entries.set(seed, bytes);
      this.#bytes += size(bytes);
      this.#evict();
    }
    return bytes;
  }

  /** The JSON of a map (identity coding), decompressed once and then held with the rest. */
  json(seed: number, bytes: MapBytes): Buffer {
    if (bytes.json) return bytes.json;
    const json = brotliDecompressSync(bytes.br);
    const withJson = { ...bytes, json };
    if (this.#entries.get(seed) === bytes && size(withJson) <= this.maxBytes) this.keep(seed, withJson);
    return json;
  }

  /** Seeds read from here since the last call, least recent first. */
  takeReads(): number[] {
    const seeds = [...this.#reads];
    this.#reads.clear();
    return seeds;
  }

  #drop(seed: number) {
    const entry = this.#entries.get(seed);
    if (entry === undefined) return;
    this.#entries.delete(seed);
    this.#bytes -= size(entry);
  }

  #evict() {
    for (const seed of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) return;
      this.#drop(seed);
    }
  }
}
