// A scenario file's bytes to text, for the loaders that read from disk (the CLI, suites). A file
// past the size limit, or too large to parse in the memory this process has left
// (memory-headroom.ts), is refused before it is read; bytes that are not UTF-8 are an error at
// their position (read as U+FFFD, they would silently change names and texts). A leading BOM is
// dropped, as editors do.
import { readFileSync, statSync } from "node:fs";
import type { Diagnostic } from "../base/diagnostics.js";
import { grouped, limitValue, overLimitMessage } from "../base/limits.js";
import { memoryShortfall } from "./memory-headroom.js";

export type ScenarioFileText =
  /** The text to check, and an encoding problem when there is one. */
  | { readonly ok: true; readonly text: string; readonly encoding: Diagnostic | null }
  /** Not read at all: the one diagnostic says why. */
  | { readonly ok: false; readonly diagnostic: Diagnostic };

/** Reads the file; file system errors (missing, unreadable) are thrown as they are. */
export function readScenarioFileText(path: string): ScenarioFileText {
  const size = statSync(path).size;
  if (size > limitValue("scenarioBytes")) {
    const message = overLimitMessage("scenarioBytes", `The file is ${grouped(size)} bytes`);
    return { ok: false, diagnostic: at(path, 0, 0, "limit-file-size", message) };
  }
  const short = memoryShortfall(size);
  if (short !== null) {
    const mib = (n: number): string => `${grouped(Math.ceil(n / (1024 * 1024)))} MiB`;
    const message = `The file is ${grouped(size)} bytes: checking it needs about ${mib(short.needed)} of memory, and this process has ${mib(short.available)} left under its ${short.limit}.`;
    return { ok: false, diagnostic: at(path, 0, 0, "limit-memory", message) };
  }
  return decodeScenarioBytes(readFileSync(path), path);
}

function decodeScenarioBytes(bytes: Uint8Array, file: string): ScenarioFileText {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const bad = firstInvalidUtf8(bytes);
  if (bad < 0) return { ok: true, text, encoding: null };
  // Where the bad byte is in the decoded text: count lines and characters of what comes before it.
  const before = Buffer.from(bytes.buffer, bytes.byteOffset, bad)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const line = before.split("\n").length - 1;
  const character = before.length - (before.lastIndexOf("\n") + 1);
  const byte = (bytes[bad] ?? 0).toString(16).toUpperCase().padStart(2, "0");
  const message = `The file is not valid UTF-8: byte 0x${byte} (at byte ${grouped(bad)}) is not part of a character. Save the file as UTF-8.`;
  return {
    ok: true,
    text,
    encoding: { ...at(file, line, character, "invalid-utf8", message), offset: [before.length, before.length + 1] },
  };
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    const [length, low, high] =
      b >= 0xc2 && b <= 0xdf
        ? [2, 0x80, 0xbf]
        : b === 0xe0
          ? [3, 0xa0, 0xbf]
          : b === 0xed
            ? [3, 0x80, 0x9f]
            : b >= 0xe1 && b <= 0xef
              ? [3, 0x80, 0xbf]
              : b === 0xf0
                ? [4, 0x90, 0xbf]
                : b === 0xf4
                  ? [4, 0x80, 0x8f]
                  : b >= 0xf1 && b <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return i;
    // The second byte has a narrower range for some leads (no overlongs, surrogates or > U+10FFFF).
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

function at(file: string, line: number, character: number, code: string, message: string): Diagnostic {
  return { file, range: { start: { line, character }, end: { line, character } }, offset: [0, 0], severity: "error", code, message };
}
