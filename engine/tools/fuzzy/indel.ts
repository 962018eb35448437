/**
 * Longest common subsequence and the Indel distance built on it, over Unicode code points (Python
 * strings index code points, so upstream's scores count them, not UTF-16 units).
 *
 * The LCS length uses the bit-parallel recurrence of Allison–Dix / Hyyrö: one bit per pattern
 * character, kept in 32-bit words so any pattern length works. A window of a longer text can be
 * scored against the same pattern without rebuilding its masks, which is what partial ratios do.
 */

/** A string as an array of code points. */
export type CodePoints = readonly number[];

export function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0) as number);
  return out;
}

/** Per-character bit masks of a pattern, reusable across many texts. */
export class PatternMasks {
  readonly length: number;
  private readonly words: number;
  private readonly masks = new Map<number, Uint32Array>();
  private readonly empty: Uint32Array;

  constructor(pattern: CodePoints) {
    this.length = pattern.length;
    this.words = Math.max(1, Math.ceil(pattern.length / 32));
    this.empty = new Uint32Array(this.words);
    pattern.forEach((ch, i) => {
      let mask = this.masks.get(ch);
      if (!mask) {
        mask = new Uint32Array(this.words);
        this.masks.set(ch, mask);
      }
      mask[i >>> 5] = ((mask[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
    });
  }

  has(ch: number): boolean {
    return this.masks.has(ch);
  }

  /** LCS length of the pattern and `text[start, end)`. */
  lcs(text: CodePoints, start = 0, end = text.length): number {
    if (this.length === 0 || end <= start) return 0;
    const words = this.words;
    // S starts as all ones over the pattern's bits; each zero bit left at the end is one LCS step.
    const s = new Uint32Array(words).fill(0xffffffff);
    for (let j = start; j < end; j++) {
      const m = this.masks.get(text[j] as number) ?? this.empty;
      let carry = 0;
      for (let w = 0; w < words; w++) {
        const sw = s[w] as number;
        const u = (sw & (m[w] as number)) >>> 0;
        const sum = sw + u + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        s[w] = ((sum >>> 0) | (sw & ~u)) >>> 0;
      }
    }
    let zeros = 0;
    for (let i = 0; i < this.length; i++) if ((((s[i >>> 5] as number) >>> (i & 31)) & 1) === 0) zeros++;
    return zeros;
  }
}

/** Insertions plus deletions that turn `a` into `b`: len(a) + len(b) - 2·LCS. */
export function indelDistance(a: CodePoints, b: CodePoints): number {
  const [pattern, text] = a.length <= b.length ? [a, b] : [b, a];
  return a.length + b.length - 2 * new PatternMasks(pattern).lcs(text);
}
