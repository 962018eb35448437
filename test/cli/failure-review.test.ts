// `run --review openai:MODEL` (issue 26, item 6): a model reads each failed or errored run and says
// which party it blames, beside the rules' cause, never instead of it. Played here through the
// real openai client over HTTP against mock-llm, which answers review requests deterministically:
// the errored run is blamed on the infrastructure, the failed one on the agent, and a run that
// succeeded is not reviewed at all. The verdict is the trajectory's last line, a field of
// summary.json, and a column and a line of `report`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "../../engine/mock-llm/server.js";
import { REVIEW_INSTRUCTIONS } from "../../engine/runner/failure-review.js";
import { loadScenarioFile } from "../../engine/scenario/load.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { requireBuild, removeTempDirs, runCliAsync as cli, tempDir } from "./harness.js";

const CELLULAR = "sample-scenarios/cellular_off_adapted.scenario.yaml";
const CONTACT = "sample-scenarios/add_contact_with_name_and_phone_number_adapted.scenario.yaml";

let scenarios: Scenario[];
let faulty: MockLlm;
let clean: MockLlm;

before(async () => {
  requireBuild();
  scenarios = [CELLULAR, CONTACT].map((f): Scenario => {
    const { scenario } = loadScenarioFile(f);
    assert.ok(scenario, f);
    return scenario;
  });
  // The first agent request fails (no retries: the first scenario errors), and every later agent
  // answer calls a tool that does not exist (the second scenario fails). Reviews are not faulted.
  faulty = await startMockLlm({
    scenarios,
    faults: [
      { kind: "server-error", role: "agent", first: 1 },
      { kind: "unknown-tool", role: "agent" },
    ],
  });
  clean = await startMockLlm({ scenarios });
});

after(async () => {
  await faulty.close();
  await clean.close();
  removeTempDirs();
});

test("run --review: an errored run is blamed on the infrastructure, a failed one on the agent, beside the rules' causes", async () => {
  const out = tempDir("review");
  const run = await cli([
    "run",
    CELLULAR,
    CONTACT,
    "--agent",
    "openai:mock",
    "--base-url",
    `${faulty.url}/v1`,
    "--max-retries",
    "0",
    "--concurrency",
    "1",
    "--review",
    "openai:mock",
    "--out",
    out,
  ]);
  assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
  assert.equal(
    faulty.requests.filter((r) => r.side === "reviewer").length,
    2,
    "each of the two runs that did not succeed is reviewed once",
  );

  const errored = readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl"));
  assert.equal(errored.endReason, "model_error");
  const review = errored.review;
  assert.ok(review, "the errored run has a review");
  assert.equal(review.reviewer, "openai:mock");
  assert.equal(review.instructions, REVIEW_INSTRUCTIONS);
  assert.equal(review.settings.base_url, `${faulty.url}/v1`);
  assert.deepEqual(review.verdict, {
    kind: "infrastructure",
    reason: "The run ended in model_error, so the conversation could not go on.",
  });
  assert.equal(review.call?.attempts, 1, "the review's request is recorded like any model call");
  const last = readFileSync(join(out, "cellular_off_adapted.trajectory.jsonl"), "utf8").trim().split("\n").at(-1)!;
  assert.equal((JSON.parse(last) as { type: string }).type, "review", "the review is the file's last line");

  const failed = readTrajectoryFile(join(out, "add_contact_with_name_and_phone_number_adapted.trajectory.jsonl"));
  assert.ok((failed.evaluation?.score ?? 1) < 1, "the agent that only calls a missing tool fails");
  assert.equal(failed.review?.verdict?.kind, "agent");
  assert.match(failed.review?.verdict?.reason ?? "", /^The agent did not reach milestone \w+\.$/);

  // summary.json keeps the rules' cause and the review side by side.
  const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as {
    scenarios: { name: string; cause: { kind: string } | null; review?: { reviewer: string; kind: string | null; reason: string } }[];
  };
  assert.deepEqual(
    summary.scenarios.map((s) => [s.name, s.cause?.kind, s.review?.kind]),
    [
      ["cellular_off_adapted", "infrastructure", "infrastructure"],
      ["add_contact_with_name_and_phone_number_adapted", "agent", "agent"],
    ],
  );

  const report = await cli(["report", out]);
  assert.equal(report.status, 0, report.stderr);
  const header = report.stdout.split("\n")[0] ?? "";
  assert.ok(header.indexOf("CAUSE") < header.indexOf("REVIEW"), "the REVIEW column sits beside CAUSE");
  assert.match(
    report.stdout,
    /cellular_off_adapted\.trajectory\.jsonl: rule infrastructure: the run ended in model_error[^;]*; openai:mock says infrastructure: The run ended in model_error/,
  );
  const json = JSON.parse((await cli(["report", out, "--json"])).stdout) as { records: { scenario: string; review?: { kind: string } }[] };
  assert.deepEqual(
    json.records.map((r) => [r.scenario, r.review?.kind]),
    [
      ["add_contact_with_name_and_phone_number_adapted", "agent"],
      ["cellular_off_adapted", "infrastructure"],
    ],
  );
});

test("eval prints the review; --resume plays again a failed run whose review a kill cut off", async () => {
  const out = tempDir("review-resume");
  const args = [
    "run",
    CONTACT,
    "--agent",
    "openai:mock",
    "--base-url",
    `${faulty.url}/v1`,
    "--max-retries",
    "0",
    "--review",
    "openai:mock",
    "--out",
    out,
  ];
  await cli(args);
  const file = join(out, "add_contact_with_name_and_phone_number_adapted.trajectory.jsonl");
  const evaluated = await cli(["eval", file]);
  assert.match(evaluated.stdout, /\n {2}review {4}openai:mock says agent: The agent did not reach milestone \w+\.\n/);

  // A kill between the evaluation and the review: the file ends at the evaluation.
  const lines = readFileSync(file, "utf8").trim().split("\n");
  writeFileSync(file, `${lines.slice(0, -1).join("\n")}\n`);
  assert.equal(readTrajectoryFile(file).review, null);
  const reviews = faulty.requests.filter((r) => r.side === "reviewer").length;
  const resumed = await cli([...args, "--resume"]);
  assert.match(
    resumed.stdout + resumed.stderr,
    /resuming: 0 of 1 episode already complete, 1 to play \(1 of them unfinished: deleted and played again from the start\)/,
  );
  assert.equal(faulty.requests.filter((r) => r.side === "reviewer").length, reviews + 1, "the run is played and reviewed again");
  assert.equal(readTrajectoryFile(file).review?.verdict?.kind, "agent");
});

test("run --review: a run that succeeded is not reviewed, and report has no REVIEW column", async () => {
  const out = tempDir("review-clean");
  const run = await cli([
    "run",
    CELLULAR,
    "--agent",
    "openai:mock",
    "--base-url",
    `${clean.url}/v1`,
    "--review",
    "openai:mock",
    "--out",
    out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(clean.requests.filter((r) => r.side === "reviewer").length, 0);
  assert.equal(readTrajectoryFile(join(out, "cellular_off_adapted.trajectory.jsonl")).review, null);
  const report = await cli(["report", out]);
  assert.doesNotMatch(report.stdout, /REVIEW/);
});

test("--review takes openai:<model> only, and its options need it", async () => {
  const bad = await cli(["run", CELLULAR, "--review", "scripted", "--out", tempDir("review-bad")]);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /unsupported reviewer "scripted" \(supported: openai:<model>\)/);
  const stray = await cli(["run", CELLULAR, "--review-base-url", "http://127.0.0.1:9/v1", "--out", tempDir("review-stray")]);
  assert.notEqual(stray.status, 0);
  assert.match(stray.stderr, /--review-base-url applies with --review openai:<model> only/);
});

test("run --review --cache: a second run is reviewed from the cache, without a request, with the same verdict", async () => {
  const wrong = await startMockLlm({ scenarios, faults: [{ kind: "unknown-tool", role: "agent" }] });
  try {
    const root = tempDir("review-cache");
    const cache = join(root, "cache");
    const run = (out: string) =>
      cli([
        "run",
        CONTACT,
        "--agent",
        "openai:mock",
        "--base-url",
        `${wrong.url}/v1`,
        "--review",
        "openai:mock",
        "--cache",
        cache,
        "--out",
        join(root, out),
      ]);
    const first = await run("first");
    assert.equal(first.status, 0, first.stderr);
    const paid = wrong.requests.length;
    assert.equal(wrong.requests.filter((r) => r.side === "reviewer").length, 1, "the first run asked the reviewer");
    const second = await run("second");
    assert.equal(second.status, 0, second.stderr);
    assert.equal(wrong.requests.length, paid, "the second run sent nothing, the reviewer's call included");
    const review = (dir: string) =>
      readTrajectoryFile(join(root, dir, "add_contact_with_name_and_phone_number_adapted.trajectory.jsonl")).review;
    const [a, b] = [review("first"), review("second")];
    assert.ok(a?.verdict && b?.verdict, "both runs were reviewed");
    assert.deepEqual(b.verdict, a.verdict);
    assert.ok(b.call?.cached, "the reviewer's call is recorded as answered from the cache");
  } finally {
    await wrong.close();
  }
});
