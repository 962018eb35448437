import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { CallCache, cacheKey, type CacheKeyParts } from "../../../engine/roles/openai/call-cache.js";

const folders: string[] = [];
after(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});
const freshFolder = (): string => {
  const f = mkdtempSync(join(tmpdir(), "call-cache-"));
  folders.push(f);
  return f;
};

const PARTS: CacheKeyParts = {
  baseUrl: "http://127.0.0.1:8765/v1",
  model: "mock",
  body: { model: "mock", messages: [{ role: "user", content: "hi" }] },
  scope: { trial: 1, seed: 0 },
};
const ANSWER = { id: "c1", choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }] };

function entryFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

test("the key changes with the endpoint, the model, the body, the trial and the seed", () => {
  const base = cacheKey(PARTS);
  const variants: CacheKeyParts[] = [
    { ...PARTS, baseUrl: "http://127.0.0.1:9000/v1" },
    { ...PARTS, model: "other" },
    { ...PARTS, body: { model: "mock", messages: [{ role: "user", content: "hi!" }] } },
    { ...PARTS, scope: { trial: 2, seed: 0 } },
    { ...PARTS, scope: { trial: null, seed: 0 } },
    { ...PARTS, scope: { trial: 1, seed: 1 } },
  ];
  const keys = new Set([base, ...variants.map(cacheKey)]);
  assert.equal(keys.size, variants.length + 1);
  assert.equal(cacheKey({ ...PARTS }), base);
});

test("a stored answer reads back; an absent one is a miss", () => {
  const cache = new CallCache(freshFolder());
  const key = cacheKey(PARTS);
  assert.equal(cache.get(key), null);
  cache.put(key, ANSWER);
  assert.deepEqual(cache.get(key), ANSWER);
  assert.equal(cache.hits, 1);
  assert.equal(cache.stores, 1);
});

test("a damaged, truncated or foreign entry is a miss, never an error", () => {
  const folder = freshFolder();
  const cache = new CallCache(folder);
  const key = cacheKey(PARTS);
  cache.put(key, ANSWER);
  const [file] = entryFiles(folder);
  assert.ok(file);
  const whole = readFileSync(file, "utf8");
  for (const damaged of [
    whole.slice(0, whole.length / 2),
    "",
    "\u0000\u0001",
    "[]",
    whole.replace(key, "0".repeat(64)),
    whole.replace('"version":1', '"version":2'),
  ]) {
    writeFileSync(file, damaged);
    assert.equal(cache.get(key), null, JSON.stringify(damaged.slice(0, 40)));
  }
  cache.put(key, ANSWER);
  assert.deepEqual(cache.get(key), ANSWER, "a new answer replaces the damaged entry");
});

test("processes writing the same entries at once leave only whole entries, and no temporary files", async () => {
  const folder = freshFolder();
  const moduleUrl = resolve(__dirname, "../../../engine/roles/openai/call-cache.ts");
  const script = `
    const { CallCache, cacheKey } = require(${JSON.stringify(moduleUrl)});
    const cache = new CallCache(${JSON.stringify(folder)});
    for (let round = 0; round < 200; round++) {
      for (let k = 0; k < 5; k++) {
        const key = cacheKey({ baseUrl: "u", model: "m", body: { k }, scope: { trial: null, seed: 0 } });
        cache.put(key, { k, filler: "x".repeat(20000) });
        const got = cache.get(key);
        if (got !== null && got.k !== k) { console.error("foreign answer"); process.exit(3); }
      }
    }`;
  const children = [1, 2, 3].map(
    () =>
      new Promise<number>((done) => {
        const child = spawn(process.execPath, ["--import", "tsx", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
        child.on("exit", (code) => done(code ?? -1));
      }),
  );
  assert.deepEqual(await Promise.all(children), [0, 0, 0]);
  const files = entryFiles(folder);
  assert.equal(files.length, 5, files.join("\n"));
  const cache = new CallCache(folder);
  for (let k = 0; k < 5; k++) {
    const got = cache.get(cacheKey({ baseUrl: "u", model: "m", body: { k }, scope: { trial: null, seed: 0 } }));
    assert.deepEqual(got, { k, filler: "x".repeat(20000) });
  }
});
