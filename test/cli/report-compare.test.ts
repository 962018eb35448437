// `toolsandbox report` and `toolsandbox compare` as a user runs them: the runs of a folder at a
// glance, a damaged run listed as damaged, two runs of one scenario compared, a run compared with
// its scenario's reference played on the spot, the HTML pages they write, and their errors.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { flawedRun, writeLines } from "../webview/trajectories.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const SAMPLES = "sample-scenarios/trajectories";
const CELLULAR = `${SAMPLES}/send_message_with_contact_content_cellular_off_adapted.trajectory.jsonl`;

before(requireBuild);
after(removeTempDirs);

test("report lists one line per run, then per group the score with its interval, the category table, pass^k, and the totals", () => {
  const r = runCli(["report", SAMPLES]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  assert.match(out[0] ?? "", /^SCENARIO\s+SUITE\s+AGENT\s+USER\s+SEED\s+TRIAL\s+SCORE\s+TURNS\s+ROLE PLAY\s+END\s+CAUSE\s+TOKENS$/);
  assert.ok(
    out.includes("agent scripted · user scripted · prompts own · augmentation none: 29 runs, 29 scored, 0 errored, 0 damaged, 0 unscored"),
  );
  assert.ok(out.includes("  success 29/29 = 1.00 [0.88, 1.00] (Wilson 95%; a success scores at least 1)"), r.stdout);
  assert.ok(
    out.some((l) => /^ {2}ALL_CATEGORIES\s+29\s+1\.00\s+\[1\.00, 1\.00\]/.test(l)),
    "the per-category table",
  );
  assert.ok(out.some((l) => l.startsWith("  pass^k over 29 scenarios")));
  assert.ok(out.some((l) => l.startsWith("  (estimator: unbiased: C(c, k) / C(n, k)")));
  assert.equal(out.at(-1), "29 runs in 1 suite, 1 group: 29 scored, 0 errored (errored left out of the scores), 0 damaged, 0 unscored");
});

test("a damaged run is a row marked damaged, not a missing one; an empty folder is a usage error", () => {
  const dir = tempDir("report");
  copyFileSync(CELLULAR, join(dir, "whole.trajectory.jsonl"));
  const text = readFileSync(CELLULAR, "utf8");
  const fileLines = text.split("\n");
  writeFileSync(join(dir, "cut.trajectory.jsonl"), `${fileLines.slice(0, 20).join("\n")}\n${fileLines[20]!.slice(0, 20)}`);
  const r = runCli(["report", dir, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const data = JSON.parse(r.stdout) as {
    records: { file: string; damaged: string | null; score: number | null }[];
    report: { damaged: number };
  };
  const cut = data.records.find((x) => x.file.endsWith("cut.trajectory.jsonl"));
  assert.match(cut?.damaged ?? "", /cut short/);
  assert.equal(cut?.score, null);
  assert.equal(data.report.damaged, 1);
  const empty = runCli(["report", tempDir("empty")]);
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /no \*\.trajectory\.jsonl under/);
});

test("compare: a run against the scenario's reference played now diverges where the agent went wrong", () => {
  const flawed = writeLines(join(tempDir("compare"), "flawed.trajectory.jsonl"), flawedRun());
  const r = runCli(["compare", flawed]);
  assert.equal(r.status, 0, r.stderr);
  const out = lines(r.stdout);
  assert.match(out[2] ?? "", /^B {2}reference \(played now\): agent scripted, user scripted, score 1\.00/);
  assert.ok(out.includes("First divergence at message 21 (turn 5):"), r.stdout);
  assert.ok(out.some((l) => /^milestone message_sent\s+matched at 22 \(0\.58\)\s+matched at 22 \(1\.00\)\s+≠$/.test(l)));
  // The same run twice: nothing diverges.
  const same = runCli(["compare", CELLULAR, CELLULAR]);
  assert.ok(lines(same.stdout).includes("The runs are the same message for message."));
});

test("compare --html writes a page with no script, the divergence highlighted and linked, every text escaped", () => {
  const dir = tempDir("compare-html");
  const payload = '<script>alert("x")</script>';
  const run = flawedRun().map((l) =>
    l.type === "message" && l.message.sandbox_message_index === 23 ? { ...l, message: { ...l.message, content: payload } } : l,
  );
  const flawed = writeLines(join(dir, "flawed.trajectory.jsonl"), run);
  const out = join(dir, "compare.html");
  const r = runCli(["compare", flawed, "--reference", "--html", out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /diverges at message 21 →/);
  const html = readFileSync(out, "utf8");
  assert.ok(!html.includes("<script"), "no script element at all");
  assert.ok(html.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
  assert.match(html, /<tr class="differs diverges" id="first-divergence" data-index="21">/);
  assert.match(html, /<a href="#first-divergence">message 21, turn 5<\/a>/);
  assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;nonce-/);
});

test("compare refuses runs of two different scenarios, and a second run with --reference", () => {
  const other = `${SAMPLES}/remove_contact_by_phone_adapted.trajectory.jsonl`;
  const r = runCli(["compare", CELLULAR, other]);
  assert.equal(r.status, 2);
  assert.match(
    r.stderr,
    /the runs are of different scenarios: send_message_with_contact_content_cellular_off_adapted and remove_contact_by_phone_adapted/,
  );
  const both = runCli(["compare", CELLULAR, CELLULAR, "--reference"]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /give a second run or --reference, not both/);
});
