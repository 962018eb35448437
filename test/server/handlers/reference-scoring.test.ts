// The background reference scoring (in-process here; the protocol tests run it in the built
// server's worker thread): one result per document, for its newest version only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ReferenceScoring, scoreReferenceText, type ReferenceResult } from "../../../server/handlers/reference-scoring.js";

const CELLULAR = readFileSync("sample-scenarios/cellular_off_adapted.scenario.yaml", "utf8");
const WRONG = CELLULAR.replace("arguments: { on: false }", "arguments: { on: true }");

/** Runs `act` against a scoring and collects what it delivers until `count` results came. */
function collect(count: number, act: (scoring: ReferenceScoring) => void): Promise<ReferenceResult[]> {
  return new Promise((resolve, reject) => {
    const results: ReferenceResult[] = [];
    const scoring = new ReferenceScoring(
      null,
      (r) => {
        results.push(r);
        if (results.length === count) {
          scoring.dispose();
          resolve(results);
        }
      },
      (message) => reject(new Error(message)),
    );
    act(scoring);
  });
}

/** The reference's own findings; the strength findings that follow them are tested on their own below. */
const codes = (r: ReferenceResult | undefined) => r?.diagnostics.map((d) => d.code).filter((c) => c.startsWith("reference-"));

test("the findings of a reference that misses a milestone, on that milestone's id", async () => {
  const wrong = await scoreReferenceText(WRONG, "cellular.scenario.yaml");
  const miss = wrong.diagnostics.find((d) => d.code === "reference-misses-milestone");
  assert.ok(miss);
  assert.equal(miss.range.start.line, CELLULAR.split("\n").indexOf("  - id: cellular_off"));
  assert.equal(wrong.strength, null, "strength needs a reference that passes");
  assert.ok(wrong.diagnostics.every((d) => d.code.startsWith("reference-")));
  const right = await scoreReferenceText(CELLULAR, "cellular.scenario.yaml");
  assert.deepEqual(
    right.diagnostics.filter((d) => d.code.startsWith("reference-")),
    [],
  );
  assert.deepEqual(
    await scoreReferenceText("name: [", "broken.scenario.yaml"),
    { diagnostics: [], strength: null },
    "a file with errors has nothing to score",
  );
});

test("a passing reference gets the scenario's strength: the verdict, a warning per wrong agent that passes on the milestone that should catch it", async () => {
  const contact = readFileSync("sample-scenarios/modify_contact_with_message_recency_adapted.scenario.yaml", "utf8");
  const scored = await scoreReferenceText(contact, "contact.scenario.yaml");
  assert.match(scored.strength ?? "", /^strength 11\/14 \(79%\) · 3 wrong agents pass · 1 right agent refused/);
  const survivors = scored.diagnostics.filter((d) => d.code === "strength-survivor");
  assert.equal(survivors.length, 3);
  assert.ok(survivors.every((d) => d.severity === "warning"));
  const lines = contact.split("\n");
  const searched = survivors.find((d) => d.message.includes("search_contacts.is_self"));
  assert.ok(searched);
  assert.equal(lines[searched.range.start.line]?.trim(), "- id: searched_contacts", "on the milestone that should decide it");
  assert.match(searched.message, /^A wrong agent passes: survived wrong-argument: search_contacts\.is_self: .*fix: add argument is_self/);
  const refused = scored.diagnostics.filter((d) => d.code === "strength-refused-variant");
  assert.equal(refused.length, 1);
  assert.equal(refused[0]?.severity, "info");
  assert.equal(lines[refused[0]!.range.start.line]?.trim(), "- id: confirmed");
});

test("a newer version supersedes the one being scored: only its result is delivered", async () => {
  const results = await collect(1, (scoring) => {
    scoring.request("file:///a.scenario.yaml", 1, WRONG, "a.scenario.yaml");
    scoring.request("file:///a.scenario.yaml", 2, CELLULAR, "a.scenario.yaml");
  });
  assert.deepEqual(
    results.map((r) => r.version),
    [2],
  );
  assert.deepEqual(codes(results[0]), []);
});

test("a cancelled document gets nothing; other documents still get theirs", async () => {
  const results = await collect(1, (scoring) => {
    scoring.request("file:///a.scenario.yaml", 1, WRONG, "a.scenario.yaml");
    scoring.request("file:///b.scenario.yaml", 7, WRONG, "b.scenario.yaml");
    scoring.cancel("file:///a.scenario.yaml");
  });
  assert.deepEqual(
    results.map((r) => [r.uri, r.version]),
    [["file:///b.scenario.yaml", 7]],
  );
  assert.ok(codes(results[0])?.includes("reference-misses-milestone"));
});

test("the worker thread is stopped once idle, and started again for the next scoring", async () => {
  // The built server bundle is the worker's script, as the server itself starts it.
  const entry = { script: resolve("dist/server.js"), argv: [] };
  assert.ok(existsSync(entry.script), "dist/server.js is built (npm test builds it first)");
  const logged: string[] = [];
  const stopped = () => logged.filter((m) => m.includes("idle, stopped")).length;
  const results: ReferenceResult[] = [];
  const scoring = new ReferenceScoring(
    entry,
    (r) => results.push(r),
    (m) => logged.push(m),
    50,
  );
  try {
    for (const version of [1, 2]) {
      scoring.request("file:///a.scenario.yaml", version, version === 1 ? WRONG : CELLULAR, "a.scenario.yaml");
      await until(() => results.length === version && stopped() === version, "a result, then the idle worker stopped");
    }
    assert.deepEqual(
      results.map((r) => [r.version, codes(r)?.includes("reference-misses-milestone")]),
      [
        [1, true],
        [2, false],
      ],
    );
    assert.equal(logged.filter((m) => !m.includes("idle, stopped")).length, 0, logged.join("\n"));
  } finally {
    scoring.dispose();
  }
});

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
