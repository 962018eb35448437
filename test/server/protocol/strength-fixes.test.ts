// The strength findings' quick fixes over the protocol (the built server, its worker scoring):
// the action edits the file, and the edited scenario, scored again, no longer has the finding.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { CodeActionRequest, type CodeAction, type Diagnostic, type PublishDiagnosticsParams } from "vscode-languageserver/node";
import { STRENGTH_METHOD, type StrengthNotice } from "../../../server/handlers/strength-notice.js";
import { applyEdits } from "../service/cursor.js";
import { LspClient, requireServerBuild, SERVER, sampleWorkspace, uriOf } from "./client.js";

const FIXTURES = "test/strength/fixtures";
/** A fixture without its `$schema` line, which points outside the test's workspace. */
const fixture = (name: string): string =>
  readFileSync(join(FIXTURES, `${name}.scenario.yaml`), "utf8").replace(/^# yaml-language-server: .*\n/, "");

let dir: string;
let client: LspClient;

before(async () => {
  requireServerBuild();
  dir = sampleWorkspace("toolsandbox-lsp-strength-fixes-");
  client = LspClient.start([SERVER, "--stdio"]);
  await client.initialize(dir);
});

after(() => {
  client.kill();
  rmSync(dirname(dir), { recursive: true, force: true });
});

/** The second publish of a version: the one the background scoring adds, with the strength findings. */
async function scored(uri: string, version: number): Promise<readonly Diagnostic[]> {
  const ofVersion = (p: PublishDiagnosticsParams) => p.uri === uri && p.version === version;
  await client.diagnostics((p) => ofVersion(p) && client.published.filter(ofVersion).length >= 2, `the scoring of version ${version}`);
  return client.published.filter(ofVersion).at(-1)!.diagnostics;
}

/** The code actions the server offers for `finding`. */
async function actionsFor(uri: string, finding: Diagnostic): Promise<CodeAction[]> {
  const request = client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: finding.range,
    context: { diagnostics: [finding] },
  });
  return ((await client.request(request, "codeAction")) as CodeAction[] | null) ?? [];
}

/** Opens `text`, takes the preferred quick fix of the finding `pick` chooses, and sends the edited text as version 2. */
async function applyFix(
  name: string,
  text: string,
  pick: (d: Diagnostic) => boolean,
): Promise<{ action: CodeAction; finding: Diagnostic; edited: string; after: readonly Diagnostic[] }> {
  const uri = uriOf(join(dir, `${name}.scenario.yaml`));
  await client.open(uri, text);
  const finding = (await scored(uri, 1)).find(pick);
  assert.ok(finding, `${name}: no such strength finding`);
  const actions = await actionsFor(uri, finding);
  const action = actions.find((a) => a.isPreferred);
  const edits = action?.edit?.changes?.[uri];
  assert.ok(action && edits, `${name}: no quick fix that edits the file`);
  const edited = applyEdits(text, edits);
  const lines = text.split("\n");
  const end = { line: lines.length - 1, character: lines.at(-1)!.length };
  await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end }, text: edited }]);
  const checked = await client.diagnostics((p) => p.uri === uri && p.version === 2, `the check of ${name}'s edited text`);
  assert.deepEqual(
    checked.diagnostics.map((d) => `${d.code}: ${d.message}`),
    [],
    "the edited scenario has no problem of its own",
  );
  return { action, finding, edited, after: await scored(uri, 2) };
}

const mentions = (operator: string) => (d: Diagnostic) => String(d.message).includes(` ${operator}: `);

test("an after edge that refuses an independent order: the fix drops it, and the reordering passes", async () => {
  const { action, finding, edited, after } = await applyFix(
    "after-edge",
    fixture("after_between_independent_reads"),
    (d) => d.code === "strength-refused-variant" && mentions("reorder-independent")(d),
  );
  assert.match(String(finding.message), /refused by searched -> got_time/);
  assert.equal(action.title, "Drop searched from the after list of milestone got_time");
  assert.match(edited, /- id: got_time\n {4}after: \[\]\n/);
  assert.match(edited, /- id: answered\n {4}after: \[searched\]\n/, "the other edge stays");
  assert.deepEqual(after.filter(mentions("reorder-independent")), []);
  assert.ok(!after.some((d) => String(d.code).startsWith("reference-")), "the reference still passes");
});

test("an edge of the implicit chain: the fix writes the after lists out without it", async () => {
  const chained = fixture("after_between_independent_reads").replaceAll("    after: [searched]\n", "");
  const { action, finding, edited, after } = await applyFix(
    "implicit-chain",
    chained,
    (d) => d.code === "strength-refused-variant" && mentions("reorder-independent")(d),
  );
  assert.match(String(finding.message), /refused by searched -> got_time; fix: the milestones form an implicit chain/);
  assert.equal(action.title, "Write the milestones' after lists out, leaving searched out of got_time's");
  assert.match(edited, /- id: searched\n {4}after: \[\]\n/);
  assert.match(edited, /- id: got_time\n {4}after: \[\]\n/);
  assert.match(edited, /- id: answered\n {4}after: \[got_time\]\n/, "the chain's other edge is kept");
  assert.deepEqual(after.filter(mentions("reorder-independent")), []);
  assert.ok(!after.some((d) => String(d.code).startsWith("reference-")));
});

test("an insufficient-information scenario without its minefield: the fix adds one, and acting without asking is caught", async () => {
  const { action, edited, after } = await applyFix(
    "insufficient",
    fixture("insufficient_without_minefield"),
    (d) => d.code === "strength-survivor" && mentions("act-without-asking")(d),
  );
  assert.equal(action.title, "Add a minefield on a call to send_message_with_phone_number");
  assert.match(edited, /\nminefields:\n {2}- id: called_send_message_with_phone_number\n[\s\S]*\nreference:\n/);
  assert.deepEqual(after.filter(mentions("act-without-asking")), []);
  assert.ok(!after.some((d) => String(d.code).startsWith("reference-")), "the reference never steps on the new minefield");
});

test("a finding whose fix is not correct by construction keeps its words and offers no edit", async () => {
  const text = fixture("after_between_independent_reads");
  const uri = uriOf(join(dir, "words-only.scenario.yaml"));
  await client.open(uri, text);
  const paraphrase = (await scored(uri, 1)).find(mentions("paraphrase-reply"));
  assert.ok(paraphrase);
  assert.match(String(paraphrase.message), /fix: loosen the measure of content/);
  const actions = await actionsFor(uri, paraphrase);
  assert.deepEqual(actions, []);
});

test("a wrong agent that passes offers Open Surviving Run, naming the mutant; the Testing view is told the verdict and the survivors", async () => {
  const notices: StrengthNotice[] = [];
  client.connection.onNotification(STRENGTH_METHOD, (notice: StrengthNotice) => void notices.push(notice));
  const text = fixture("message_without_content");
  const uri = uriOf(join(dir, "survivor-run.scenario.yaml"));
  await client.open(uri, text);
  const findings = await scored(uri, 1);
  const survivor = findings.find(
    (d) => d.code === "strength-survivor" && String(d.message).includes("send_message_with_phone_number.content"),
  );
  assert.ok(survivor, findings.map((d) => d.message).join("\n"));
  const actions = await actionsFor(uri, survivor);
  const open = actions.find((a) => a.title === "Open Surviving Run");
  assert.ok(open?.command, actions.map((a) => a.title).join(", "));
  assert.equal(open.command.command, "toolsandbox.openSurvivingRun");
  const [argUri, ref] = open.command.arguments as [string, { operator: string; change: string; mutant: number }];
  assert.equal(argUri, uri);
  assert.equal(ref.operator, "wrong-argument");
  assert.ok(String(survivor.message).includes(ref.change), "the mutant named is the one the warning describes");

  // Sent right after the findings' publish: wait for it a little.
  for (let i = 0; i < 100 && !notices.some((n) => n.uri === uri); i++) await new Promise((r) => setTimeout(r, 20));
  const notice = notices.find((n) => n.uri === uri);
  assert.ok(notice, "the server sends the strength once it is measured");
  assert.match(notice.verdict ?? "", /^strength \d+\/\d+ \(\d+%\) · \d+ wrong agents? pass/);
  const survivors = findings.filter((d) => d.code === "strength-survivor");
  assert.deepEqual(
    notice.survivors.map((s) => [s.message, s.range.start.line]),
    survivors.map((d) => [d.message, d.range.start.line]),
  );
  assert.deepEqual(notice.survivors.find((s) => s.message === survivor.message)?.ref, ref);
});
