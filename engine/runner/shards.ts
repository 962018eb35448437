// One run split over N machines: `run --shard I/N` plays the jobs whose name hashes to shard I.
// The name is the job's trajectory file name (scenario or variant, and trial), so a job's shard
// depends only on what the job is, never on the machine, the order files were found in, or which
// other scenarios the run has; every job falls in exactly one shard.
import { createHash } from "node:crypto";

export interface Shard {
  /** 1-based, at most `count`. */
  readonly index: number;
  readonly count: number;
}

export class ShardSpecError extends Error {
  override readonly name = "ShardSpecError";
}

/** "I/N", 1 <= I <= N, as `--shard` takes it. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  if (!match) throw new ShardSpecError(`--shard takes I/N (this machine's part I of N, e.g. 2/4), got "${text}"`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) throw new ShardSpecError(`--shard ${text}: I must be from 1 to N (N >= 1)`);
  return { index, count };
}

/** The 1-based shard of `jobName` among `count`: the first 48 bits of its SHA-256, modulo `count`. */
export function shardOf(jobName: string, count: number): number {
  const digest = createHash("sha256").update(jobName, "utf8").digest();
  return (digest.readUIntBE(0, 6) % count) + 1;
}

export const inShard = (jobName: string, shard: Shard | undefined): boolean =>
  shard === undefined || shardOf(jobName, shard.count) === shard.index;
