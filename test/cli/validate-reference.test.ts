import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBuild, lines, removeTempDirs, runCli, tempDir } from "./harness.js";

before(requireBuild);
after(removeTempDirs);

const FIXTURE = readFileSync("test/fixtures/scenarios/suite/text_with_cellular_off.scenario.yaml", "utf8");

/** The fixture with edits, written to a temp file; returns the path and the edited text. */
function write(edit: (text: string) => string): { file: string; text: string } {
  const text = edit(FIXTURE);
  assert.notEqual(text, FIXTURE, "the edit changed nothing");
  const file = join(tempDir("validate"), "scenario.scenario.yaml");
  writeFileSync(file, text);
  return { file, text };
}

/** 1-based line and column of the id's value, the text a diagnostic on node `id` underlines. */
function idAt(text: string, id: string): string {
  const at = text.indexOf(`id: ${id}\n`) + "id: ".length;
  assert.ok(at >= "id: ".length, id);
  const before = text.slice(0, at).split("\n");
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

test("a milestone the reference never reaches is an error on that milestone's id", () => {
  const { file, text } = write((t) => t.replace('recipient_phone_number: "+12453344098"', 'recipient_phone_number: "+10000000000"'));
  const r = runCli(["validate", file]);
  assert.equal(r.status, 1);
  const out = lines(r.stdout);
  assert.equal(out.length, 2, r.stdout);
  assert.ok(
    out[0]!.startsWith(
      `${file}:${idAt(text, "sent")}: error reference-misses-milestone: The reference solution never reaches this milestone (no match; closest at `,
    ),
    out[0],
  );
  assert.match(out[0]!, /recipient_phone_number: found "\+12453344098", expected "\+10000000000"\)\.$/);
  assert.equal(out[1], "1 file checked: 1 error, 0 warnings");
});

test("a minefield the reference steps on is an error on that minefield's id", () => {
  const minefield = `minefields:
  - id: texted_fredrik
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: send_message_with_phone_number, arguments: {} } }]
reference:`;
  const { file, text } = write((t) => t.replace("reference:", minefield));
  const r = runCli(["validate", "--json", file]);
  assert.equal(r.status, 1);
  const report = JSON.parse(r.stdout) as {
    files: {
      valid: boolean;
      diagnostics: { code: string; severity: string; message: string; range: { start: { line: number; character: number } } }[];
    }[];
  };
  const [d, ...rest] = report.files[0]!.diagnostics;
  assert.deepEqual(rest, []);
  assert.equal(d?.code, "reference-hits-minefield");
  assert.equal(d?.severity, "error");
  assert.equal(`${d.range.start.line + 1}:${d.range.start.character + 1}`, idAt(text, "texted_fredrik"));
  assert.match(d.message, /^The reference solution steps on this minefield at message \d+ \(similarity 1\.00\)\.$/);
  assert.equal(report.files[0]!.valid, false);
});

test("a milestone the reference reaches only partly is a warning (exit 0)", () => {
  const { file, text } = write((t) => t.replace("content: See you at rehearsal }", "content: See you at the rehearsal tonight }"));
  const r = runCli(["validate", file]);
  assert.equal(r.status, 0, r.stdout);
  const out = lines(r.stdout);
  assert.ok(
    out[0]!.startsWith(
      `${file}:${idAt(text, "sent")}: warning reference-partial-milestone: The reference solution reaches this milestone only partly: 0.`,
    ),
    out[0],
  );
  assert.match(out[0]!, /content: ROUGE-L against/);
  assert.equal(out[1], "1 file checked: 0 errors, 1 warning");
});

test("a file with checker errors is not played", () => {
  const { file } = write((t) => t.replace("after: [cellular_on]", "after: [cellular_onn]"));
  const r = runCli(["validate", file]);
  assert.equal(r.status, 1);
  assert.ok(
    lines(r.stdout).every((l) => !/reference-/.test(l)),
    r.stdout,
  );
});

test("every sample scenario validates clean: each reference meets its own milestones", () => {
  const r = runCli(["validate", "sample-scenarios"]);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /^\d+ files checked: no problems$/m);
});
