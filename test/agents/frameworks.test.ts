// The example agents in examples/agents/, built with real third-party frameworks (the OpenAI
// Agents SDK, the Vercel AI SDK), played through every sample with `run --agent cmd:` and mock-llm
// as their model over HTTP. mock-llm plays each scenario's reference, so each episode must score
// 1.0 and hold the scripted run's tool calls, results and world changes; only the call ids (which
// the frameworks choose) may differ.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isJsonObject } from "../../engine/base/json.js";
import type { Message } from "../../engine/episode/types.js";
import { type MockLlm, type RecordedRequest, startMockLlm } from "../../engine/mock-llm/server.js";
import { packById } from "../../engine/packs/registry.js";
import { scrambledToolNames } from "../../engine/scenario/augmentations/scrambling.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, removeTempDirs, runCli, runCliAsync, tempDir } from "../cli/harness.js";
import { loadSample, SAMPLES, sampleFiles } from "./helpers.js";

const EXAMPLES = join(process.cwd(), "examples", "agents");

/** A sample with parallel calls, played in upstream's eight tool-augmentation variants (names scrambled, distraction tools, ...). */
const AUGMENTED = join(SAMPLES, "update_contact_relationship_with_relationship_adapted.scenario.yaml");

let mock: MockLlm;
let scripted: string;
let scriptedAugmented: string;

before(async () => {
  requireBuild();
  mock = await startMockLlm({ scenarios: sampleFiles().map(loadSample) });
  scripted = tempDir("frameworks-scripted");
  const run = runCli(["run", SAMPLES, "--out", scripted]);
  assert.equal(run.status, 0, run.stderr);
  scriptedAugmented = tempDir("frameworks-scripted-augmented");
  const augmented = runCli(["run", AUGMENTED, "--augment", "--out", scriptedAugmented]);
  assert.equal(augmented.status, 0, augmented.stderr);
});

after(async () => {
  await mock?.close();
  removeTempDirs();
});

interface Summary {
  readonly totals: { readonly failed: number };
  readonly scenarios: readonly {
    readonly name: string;
    readonly score: number | null;
    readonly end_reason: string | null;
    readonly trajectory: string;
  }[];
}

/**
 * The messages with every call id replaced by its rank of first appearance: the ids are the
 * frameworks' own, so what must match is which calls were made, in which turns, with which results.
 */
function withoutCallIds(messages: readonly Message[]): unknown[] {
  const ids: string[] = [];
  for (const m of messages) if (m.openai_tool_call_id !== null && !ids.includes(m.openai_tool_call_id)) ids.push(m.openai_tool_call_id);
  let text = JSON.stringify(messages);
  // Longest first, so that no id is replaced inside a longer one.
  for (const id of [...ids].sort((a, b) => b.length - a.length)) {
    text = text.replace(new RegExp(`${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9])`, "g"), `<call ${ids.indexOf(id) + 1}>`);
  }
  return JSON.parse(text) as unknown[];
}

/**
 * Plays the scenarios with the example agent, 4 at a time, and checks each episode against the
 * scripted run's in `reference` (every sample, unless other run arguments are given).
 */
async function playSamples(
  example: string,
  runArgs: readonly string[] = [SAMPLES],
  reference = scripted,
  episodes = sampleFiles().length,
): Promise<readonly RecordedRequest[]> {
  const out = tempDir(`frameworks-${example}`);
  const first = mock.requests.length;
  const run = await runCliAsync(
    [
      "run",
      ...runArgs,
      "--agent",
      `cmd:node --import tsx '${join(EXAMPLES, example)}'`,
      "--concurrency",
      "4",
      "--batch-window",
      "100",
      "--time-limit",
      "120",
      "--out",
      out,
    ],
    { OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_API_KEY: "mock-key", OPENAI_MODEL: "mock" },
  );
  assert.equal(run.status, 0, run.stderr);
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Summary;
  assert.equal(summary.scenarios.length, episodes);
  for (const s of summary.scenarios) {
    const stem = s.trajectory.replace(/\.trajectory\.jsonl$/, "");
    const stderr = readFileSync(join(out, `${stem}.agent-stderr.log`), "utf8");
    assert.equal(s.end_reason, "end_conversation", `${s.name}: ended by ${s.end_reason}; the agent said: ${stderr}`);
    assert.equal(s.score, 1, `${s.name}: score`);
    assert.equal(stderr, "", `${s.name}: the agent wrote to stderr`);
    const played = readTrajectoryFile(join(out, s.trajectory));
    const expected = readTrajectoryFile(join(reference, s.trajectory));
    assert.deepEqual(withoutCallIds(played.messages), withoutCallIds(expected.messages), `${s.name}: the same calls, results and messages`);
    assert.deepEqual(
      played.events.filter((e) => e.type === "world"),
      expected.events.filter((e) => e.type === "world"),
      `${s.name}: the same world changes`,
    );
  }
  assert.equal(summary.totals.failed, 0);
  const requests = mock.requests.slice(first);
  const refused = requests.filter((r) => r.status !== 200);
  assert.deepEqual(
    refused.map((r) => `${r.path} ${r.status}: ${r.error}`),
    [],
    "mock-llm answered every request of the framework",
  );
  return requests;
}

test("the OpenAI Agents SDK example plays every sample through the Responses API and scores 1.0 with the scripted run's calls", async () => {
  const requests = await playSamples("openai-agents.ts");
  assert.ok(requests.length >= sampleFiles().length);
  for (const r of requests) {
    assert.equal(r.path, "/v1/responses");
    assert.ok(isJsonObject(r.body) && Array.isArray(r.body.tools), "the SDK sends the MCP server's tools");
  }
});

test("the Vercel AI SDK example plays every sample through streamed chat completions and scores 1.0 with the scripted run's calls", async () => {
  const requests = await playSamples("ai-sdk.ts");
  assert.ok(requests.length >= sampleFiles().length);
  for (const r of requests) {
    assert.equal(r.path, "/v1/chat/completions");
    assert.ok(isJsonObject(r.body) && r.body.stream === true, "streamed");
    assert.deepEqual(isJsonObject(r.body) ? r.body.stream_options : null, { include_usage: true });
  }
});

test("both examples call the tools by the names the MCP server lists: a sample's eight augmentation variants (scrambled names, distraction tools) score 1.0", async () => {
  const scrambled = scrambledToolNames(packById("toolsandbox").tools).get("search_contacts");
  assert.ok(scrambled);
  for (const example of ["openai-agents.ts", "ai-sdk.ts"]) {
    const requests = await playSamples(example, [AUGMENTED, "--augment"], scriptedAugmented, 8);
    const offered = new Set(
      requests.flatMap((r) =>
        isJsonObject(r.body) && Array.isArray(r.body.tools)
          ? r.body.tools.flatMap((t) => (isJsonObject(t) ? [isJsonObject(t.function) ? t.function.name : t.name] : []))
          : [],
      ),
    );
    assert.ok(offered.has(scrambled), `${example}: the scrambled name ${scrambled} was offered to the model`);
  }
});
