/** A small seeded PRNG (mulberry32): fast, deterministic, good enough for random test weights. */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform uint32. */
  nextU32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform in [-amplitude, amplitude). */
  uniform(amplitude: number): number {
    return (this.nextU32() / 4294967296) * 2 * amplitude - amplitude;
  }
  fillUniform(out: Float32Array, amplitude: number): void {
    for (let i = 0; i < out.length; i++) out[i] = this.uniform(amplitude);
  }
}
