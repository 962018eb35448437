// CPython's `random.Random`: the MT19937 Mersenne Twister seeded and read exactly as CPython does,
// so that code ported from Python draws the same numbers. ToolTalk's tools format their ids from
// `Random(489).randint(...)` draws, and its ground truth records those ids; only a bit-exact
// generator reproduces them. Covered: seeding from an int, getrandbits, randbelow, randint, random.

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const TWO_POW_32 = 0x1_0000_0000;

/** int.bit_length() of a non-negative safe integer (exact, where log2 may round). */
function bitLength(n: number): number {
  return n === 0 ? 0 : n.toString(2).length;
}

export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  /** `random.Random(seed)` for an int seed: the generator keyed by the 32-bit words of |seed|. */
  constructor(seed: number | bigint) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    let rest = BigInt(seed);
    if (rest < 0n) rest = -rest;
    // CPython: the absolute value as little-endian 32-bit words, at least one word (0 -> [0]).
    const key: number[] = [];
    do {
      key.push(Number(rest & 0xffffffffn));
      rest >>= 32n;
    } while (rest > 0n);
    this.initByArray(key);
  }

  /** An independent generator in the same state. */
  clone(): PythonRandom {
    const copy = new PythonRandom(0);
    copy.mt.set(this.mt);
    copy.index = this.index;
    return copy;
  }

  private initGenrand(seed: number): void {
    const mt = this.mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    // Non-zero initial state is guaranteed by setting the most significant bit.
    mt[0] = 0x80000000;
    this.index = N;
  }

  private twist(): void {
    const mt = this.mt;
    const mix = (upper: number, lower: number, far: number): number => {
      const y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
      return (far ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
    };
    let kk = 0;
    for (; kk < N - M; kk++) mt[kk] = mix(mt[kk]!, mt[kk + 1]!, mt[kk + M]!);
    for (; kk < N - 1; kk++) mt[kk] = mix(mt[kk]!, mt[kk + 1]!, mt[kk + M - N]!);
    mt[N - 1] = mix(mt[N - 1]!, mt[0]!, mt[M - 1]!);
    this.index = 0;
  }

  /** genrand_uint32: the next tempered 32-bit output. */
  private nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /**
   * `getrandbits(k)` for k <= 53, as a number. Up to 32 bits come from the top of one output; more
   * are assembled from 32-bit words, least significant first, the last word keeping its top bits.
   */
  private smallRandbits(k: number): number {
    if (k <= 32) return k === 0 ? 0 : this.nextUint32() >>> (32 - k);
    const low = this.nextUint32();
    const high = this.nextUint32() >>> (64 - k);
    return high * TWO_POW_32 + low;
  }

  /** `getrandbits(k)`: a uniformly random non-negative integer below 2**k, for any k >= 0. */
  getrandbits(k: number): bigint {
    if (!Number.isSafeInteger(k) || k < 0) throw new RangeError(`number of bits must be a non-negative integer, got ${k}`);
    if (k <= 32) return BigInt(this.smallRandbits(k));
    let result = 0n;
    let shift = 0n;
    for (let remaining = k; remaining > 0; remaining -= 32) {
      let word = this.nextUint32();
      if (remaining < 32) word >>>= 32 - remaining;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /** `_randbelow(n)`: rejection sampling on getrandbits(n.bit_length()); 0 <= result < n. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`randbelow needs a positive safe integer, got ${n}`);
    const k = bitLength(n);
    let r = this.smallRandbits(k);
    while (r >= n) r = this.smallRandbits(k);
    return r;
  }

  /** `randint(a, b)`: a random integer with a <= result <= b. */
  randint(a: number, b: number): number {
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || b < a)
      throw new RangeError(`empty or non-integer range for randint(${a}, ${b})`);
    return a + this.randbelow(b - a + 1);
  }

  /** `random()`: a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}
