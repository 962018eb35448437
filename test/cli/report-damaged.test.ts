// Damaged means damaged everywhere: a file broken in the middle is a damaged row (with its line and
// reason, never a score) in `report`, as it is an error in `replay`; a cut-short file is damaged in
// `report` and left out of `eval`'s mean while eval still shows what it read.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runRecordOf } from "../../engine/reports/run-record.js";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

const CELLULAR = "sample-scenarios/trajectories/send_message_with_contact_content_cellular_off_adapted.trajectory.jsonl";
const TEXT = readFileSync(CELLULAR, "utf8");

before(requireBuild);
after(removeTempDirs);

/** The sample with its line `n` (1-based) replaced by `line`. */
function withLine(n: number, line: string): string {
  const all = TEXT.split("\n");
  all[n - 1] = line;
  return all.join("\n");
}

test("a file corrupt in the middle is a damaged row with the line and reason, not a 1.00 run", () => {
  const whole = runRecordOf(TEXT, "whole.trajectory.jsonl", ".", 0);
  assert.equal(whole.status, "scored");
  assert.equal(whole.score, 1);
  const broken = runRecordOf(withLine(10, '{"type":"message","message":'), "broken.trajectory.jsonl", ".", 0);
  assert.equal(broken.status, "damaged");
  assert.equal(broken.score, null);
  assert.equal(broken.damaged_line, 10);
  assert.match(broken.damaged ?? "", /^invalid JSON/);
  // What could be read before the break still names the run.
  assert.equal(broken.scenario, "send_message_with_contact_content_cellular_off_adapted");
  // A line that parses but breaks the trajectory's rules is damage too (the check replay makes).
  const misordered = runRecordOf(withLine(10, TEXT.split("\n")[12]!), "misordered.trajectory.jsonl", ".", 0);
  assert.equal(misordered.status, "damaged");
  assert.equal(misordered.damaged_line, 10);
});

test("report and replay agree on a file corrupt mid-way: damaged row (exit 0) and error naming the same line (exit 4)", () => {
  const dir = tempDir("damaged");
  const file = join(dir, "broken.trajectory.jsonl");
  writeFileSync(file, withLine(10, "{oops"));
  writeFileSync(join(dir, "whole.trajectory.jsonl"), TEXT);
  const r = runCli(["report", dir, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const data = JSON.parse(r.stdout) as {
    records: { file: string; status: string; damaged: string | null; damaged_line: number | null; score: number | null }[];
    report: { runs: number; damaged: number };
  };
  const row = data.records.find((x) => x.file === file);
  assert.deepEqual({ status: row?.status, line: row?.damaged_line, score: row?.score }, { status: "damaged", line: 10, score: null });
  assert.equal(data.report.damaged, 1);
  const text = runCli(["report", dir]);
  assert.ok(
    lines(text.stdout).some((l) => /damaged \(line 10: invalid JSON/.test(l)),
    text.stdout,
  );
  const replay = runCli(["replay", file]);
  assert.equal(replay.status, 4);
  assert.match(replay.stderr, new RegExp(`${file}:10: invalid JSON`));
});

test("eval shows a cut-short file as damaged and leaves it out of the mean", () => {
  const dir = tempDir("eval-damaged");
  const cut = join(dir, "cut.trajectory.jsonl");
  const all = TEXT.split("\n").filter((l) => l !== "");
  writeFileSync(cut, `${all.slice(0, 20).join("\n")}\n${all[20]!.slice(0, 15)}`);
  const r = runCli(["eval", CELLULAR, cut, "--json"]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { trajectories: { file: string; status: string; damaged: string | null }[] };
  assert.deepEqual(
    out.trajectories.map((t) => [t.status, t.damaged === null ? null : t.damaged.startsWith("line 21:")]),
    [
      ["scored", null],
      ["damaged", true],
    ],
  );
  const text = runCli(["eval", CELLULAR, cut]);
  assert.ok(
    lines(text.stdout).includes(
      "  1 of 2 trajectories counted (1 damaged or errored, left out), 1 scenario, mean score 1.00 [n too small]",
    ),
    text.stdout,
  );
});
