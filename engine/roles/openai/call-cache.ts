// `run --cache DIR`: a model's answers kept on disk, so an episode played again with the same
// requests (a stopped run resumed, a run re-scored after the scoring changed, a colleague
// reproducing a figure) is answered without paying for the calls again.
//
// The key is everything that decides the answer: the endpoint, the model, the exact request body,
// and the job's trial and seed, so trials of one scenario never share answers even when their
// requests are the same text. Entries are written to a temporary file and renamed into place, so
// processes sharing one folder (shards on one machine) never see half an entry; an entry that does
// not read back whole and for its own key is a miss, never an error.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject, type JsonValue } from "../../base/json.js";

const FORMAT = "toolsandbox-call-cache";
const VERSION = 1;

/** What, besides the request itself, separates two calls: the job they belong to. */
export interface CacheScope {
  readonly trial: number | null;
  readonly seed: number;
}

export interface CacheKeyParts {
  readonly baseUrl: string;
  readonly model: string;
  /** The request body exactly as sent (serialized as JSON for the key). */
  readonly body: unknown;
  readonly scope: CacheScope;
}

/** The entry's name: SHA-256 over the parts, each length-prefixed so no two sets of parts run together. */
export function cacheKey(parts: CacheKeyParts): string {
  const hash = createHash("sha256");
  for (const part of [parts.baseUrl, parts.model, JSON.stringify(parts.body), String(parts.scope.trial), String(parts.scope.seed)]) {
    hash.update(`${Buffer.byteLength(part, "utf8")}:`).update(part, "utf8");
  }
  return hash.digest("hex");
}

export class CallCache {
  /** Answers read from the cache, and answers stored, since this object was made. */
  hits = 0;
  stores = 0;

  constructor(readonly folder: string) {}

  private path(key: string): string {
    return join(this.folder, key.slice(0, 2), `${key}.json`);
  }

  /** The response stored for `key`, or null: absent, unreadable, damaged, or stored for another key. */
  get(key: string): JsonValue | null {
    let text: string;
    try {
      text = readFileSync(this.path(key), "utf8");
    } catch {
      return null;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isJsonObject(entry) || entry.format !== FORMAT || entry.version !== VERSION || entry.key !== key) return null;
    const response = entry.response;
    if (response === undefined || !isJsonObject(response)) return null;
    this.hits++;
    return response;
  }

  /** Stores `response` under `key`; a write that fails leaves no entry (the call was answered anyway). */
  put(key: string, response: JsonValue): void {
    const path = this.path(key);
    const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      mkdirSync(join(this.folder, key.slice(0, 2)), { recursive: true });
      writeFileSync(temporary, `${JSON.stringify({ format: FORMAT, version: VERSION, key, response })}\n`, { flag: "wx" });
      renameSync(temporary, path);
      this.stores++;
    } catch {
      rmSync(temporary, { force: true });
    }
  }
}
