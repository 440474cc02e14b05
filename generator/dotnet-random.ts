// Legacy .NET Framework / Mono System.Random(seed): Knuth's subtractive generator. The game seeds one of
// these with the map seed, so every draw must match bit for bit (int32 wrap-around included).

const MBIG = 2147483647;
const MSEED = 161803398;

export class DotnetRandom {
  private readonly seedArray = new Int32Array(56);
  private inext = 0;
  private inextp = 21;

  constructor(seed: number) {
    const sa = this.seedArray;
    const subtraction = seed === -2147483648 ? MBIG : Math.abs(seed | 0);
    let mj = (MSEED - subtraction) | 0;
    sa[55] = mj;
    let mk = 1;
    for (let i = 1; i < 55; i++) {
      const ii = (21 * i) % 55;
      sa[ii] = mk;
      mk = (mj - mk) | 0;
      if (mk < 0) mk += MBIG;
      mj = sa[ii]!;
    }
    for (let k = 1; k < 5; k++) {
      for (let i = 1; i < 56; i++) {
        // Int32Array stores with C#'s unchecked int32 wrap-around.
        sa[i] = sa[i]! - sa[1 + ((i + 30) % 55)]!;
        if (sa[i]! < 0) sa[i] = sa[i]! + MBIG;
      }
    }
  }

  /** Raw draw in 0..2147483646 (the framework's InternalSample). */
  internalSample(): number {
    const sa = this.seedArray;
    if (++this.inext >= 56) this.inext = 1;
    if (++this.inextp >= 56) this.inextp = 1;
    let ret = sa[this.inext]! - sa[this.inextp]!;
    if (ret === MBIG) ret--;
    if (ret < 0) ret += MBIG;
    sa[this.inext] = ret;
    return ret;
  }

  private sample(): number {
    return this.internalSample() * (1.0 / MBIG);
  }

  /** Next(): 0..2147483646. */
  next(): number;
  /** Next(maxValue): 0..maxValue-1. */
  next(maxValue: number): number;
  /** Next(minValue, maxValue): minValue..maxValue-1. */
  next(minValue: number, maxValue: number): number;
  next(a?: number, b?: number): number {
    if (a === undefined) return this.internalSample();
    if (b === undefined) {
      if (a < 0) throw new RangeError('maxValue must be non-negative');
      return Math.trunc(this.sample() * a);
    }
    if (a > b) throw new RangeError('minValue must not exceed maxValue');
    const range = b - a;
    if (range <= MBIG) return Math.trunc(this.sample() * range) + a;
    return Math.trunc(this.sampleForLargeRange() * range) + a;
  }

  /** NextDouble() = Sample(), in [0, 1). */
  nextDouble(): number {
    return this.sample();
  }

  // Next(min, max) with a range wider than int32 draws twice for more bits.
  private sampleForLargeRange(): number {
    let result = this.internalSample();
    if (this.internalSample() % 2 === 0) result = -result;
    let d = result;
    d += MBIG - 1;
    d /= 2 * MBIG - 1;
    return d;
  }
}
