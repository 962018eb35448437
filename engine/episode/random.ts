// The episode's only source of randomness: a seeded generator whose state can be cloned, so the
// all-orderings check can give every ordering the same starting state and keep the winner's.
// Tools draw their uuid4 ids from it (upstream uses os.urandom; we need reproducible runs).
import { v4 as uuidv4 } from "uuid";

const TWO_POW_32 = 0x1_0000_0000;

/** splitmix32: spreads a 32-bit seed over a well-mixed sequence, used only to fill the state. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** sfc32 (Chris Doty-Humphrey's small fast counting generator): 128 bits of state, 32-bit outputs. */
export class SeededRandom {
  private constructor(
    private a: number,
    private b: number,
    private c: number,
    private d: number,
  ) {}

  /** Any safe integer is a valid seed; negative and large seeds keep all their bits. */
  static fromSeed(seed: number): SeededRandom {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_POW_32) >>> 0;
    const mixLow = splitmix32(low);
    const mixHigh = splitmix32(high ^ 0x5bd1e995);
    const random = new SeededRandom(mixLow(), mixHigh(), mixLow(), mixHigh());
    // Warm up so that nearby seeds do not start with correlated outputs.
    for (let i = 0; i < 12; i++) random.nextUint32();
    return random;
  }

  /** An independent generator in the same state: both produce the same sequence from here. */
  clone(): SeededRandom {
    return new SeededRandom(this.a, this.b, this.c, this.d);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  bytes(count: number): Uint8Array {
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i += 4) {
      const word = this.nextUint32();
      for (let k = 0; k < 4 && i + k < count; k++) out[i + k] = (word >>> (8 * k)) & 0xff;
    }
    return out;
  }

  /** A version-4 UUID built from 16 bytes of this generator. */
  uuid4(): string {
    return uuidv4({ random: this.bytes(16) });
  }
}
