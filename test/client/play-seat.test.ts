// Issue 36, "Play Scenario as Agent…": what the panel's form sends is checked where it enters the
// host (the shape by the guards, then the tools by the seat), and a scenario played through the
// form is written and scored by the one runner like `toolsandbox play --as agent`'s runs.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { dispatchViewRequest, type ViewRequestHandlers } from "../../client/host/view-requests.js";
import { PlaySeat } from "../../client/host/play-seat.js";
import { MAX_SAID_LENGTH } from "../../client/webview/validate/play.js";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";
import type { PlayFormMessage, PlayRequest } from "../../engine/panel/play-protocol.js";
import { createHumanAgent } from "../../engine/roles/human.js";
import { planJobs } from "../../engine/runner/jobs.js";
import { playJob } from "../../engine/runner/play.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { removeTempDirs, resolveScenario, scenarioPath, scenarioText, tempDir } from "./fixtures.js";

after(removeTempDirs);

function played(raw: unknown): { refused: string | null; requests: PlayRequest[] } {
  const requests: PlayRequest[] = [];
  const none = (): void => undefined;
  const handlers: ViewRequestHandlers = {
    ready: none,
    openLink: none,
    revealNode: none,
    runControl: none,
    selected: none,
    command: none,
    play: (request) => requests.push(request),
  };
  return { refused: dispatchViewRequest(raw, handlers), requests };
}

test("the form's calls, messages and quit reach the host as they were sent", () => {
  const call = { type: "play-call", tool: "search_contacts", arguments: { name: "Fredrik", limit: 3, tags: ["a"], nested: { on: true } } };
  assert.deepEqual(played(call), { refused: null, requests: [call] });
  assert.deepEqual(played({ type: "play-say", text: "Done." }).requests, [{ type: "play-say", text: "Done." }]);
  assert.deepEqual(played({ type: "play-quit" }).requests, [{ type: "play-quit" }]);
});

test("a malformed call or message is refused in one line and never reaches the seat", () => {
  const deep: unknown[] = [];
  let inner = deep;
  for (let i = 0; i < 100; i++) {
    const next: unknown[] = [];
    inner.push(next);
    inner = next;
  }
  const manyArgs = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`a${i}`, i]));
  for (const [raw, expected] of [
    [{ type: "play-call", tool: "search_contacts()", arguments: {} }, /\/tool must be a name/],
    [{ type: "play-call", tool: "search_contacts", arguments: { "name=1, x": "y" } }, /\/arguments\/name=1, x must be a name/],
    [{ type: "play-call", tool: "search_contacts", arguments: [] }, /\/arguments must be an object/],
    [{ type: "play-call", tool: "search_contacts", arguments: { limit: Number.NaN } }, /\/arguments\/limit must be a finite number/],
    [{ type: "play-call", tool: "search_contacts", arguments: { x: deep } }, /nested deeper/],
    [{ type: "play-call", tool: "search_contacts", arguments: manyArgs }, /at most 64 arguments/],
    [{ type: "play-say", text: "   " }, /\/text must not be empty/],
    [{ type: "play-say", text: "x".repeat(MAX_SAID_LENGTH + 1) }, /at most 20000 characters/],
    [{ type: "play-say" }, /\/text must be a string/],
  ] as const) {
    const { refused, requests } = played(raw);
    assert.match(refused ?? "", expected);
    assert.doesNotMatch(refused ?? "", /\n/);
    assert.deepEqual(requests, []);
  }
});

test("a play request is refused by a view that has no play handler (the runs view)", () => {
  const refused = dispatchViewRequest(
    { type: "play-quit" },
    {
      ready: () => undefined,
      openLink: () => undefined,
      revealNode: () => undefined,
      runControl: () => undefined,
      selected: () => undefined,
      command: () => undefined,
    },
  );
  assert.equal(refused, "play-quit is a request of a played run's panel");
});

test("the panel reads the host's form and drops a malformed one", () => {
  const form: PlayFormMessage = {
    type: "play",
    tools: [
      {
        name: "t",
        description: "d",
        fields: [{ name: "x", description: "", required: true, kind: "string", options: [], suggestions: ["a"] }],
      },
    ],
    yourTurn: true,
    problem: null,
    ended: false,
  };
  assert.deepEqual(parseHostMessage(form), { ok: true, value: form });
  const bad = parseHostMessage({ ...form, tools: [{ ...form.tools[0], fields: [{ ...form.tools[0]!.fields[0], kind: "date" }] }] });
  assert.equal(bad.ok, false);
});

/** A seat with a pending turn, the forms it published and a way to wait for the next turn. */
function seatOf(scenario: Scenario): { seat: PlaySeat; forms: PlayFormMessage[]; nextTurn: () => Promise<void> } {
  const forms: PlayFormMessage[] = [];
  let wake: (() => void) | null = null;
  const seat = new PlaySeat(scenario, (form) => {
    forms.push(form);
    if (form.yourTurn || form.ended) wake?.();
  });
  const nextTurn = (): Promise<void> =>
    seat.form.yourTurn || seat.form.ended
      ? Promise.resolve()
      : new Promise((resolve) => {
          wake = resolve;
        });
  return { seat, forms, nextTurn };
}

test("the seat refuses what the agent could not do, and a message that would read as a call", async () => {
  const scenario = resolveScenario(scenarioText("remove_contact_by_phone_adapted"));
  const { seat, forms } = seatOf(scenario);
  assert.match(seat.receive({ type: "play-say", text: "hello" }) ?? "", /not your turn/);
  const line = seat.read("agent> ");
  assert.equal(forms.at(-1)?.yourTurn, true);
  assert.match(
    seat.receive({ type: "play-call", tool: "search_contact", arguments: {} }) ?? "",
    /not a tool the agent may call here. Did you mean "search_contacts"\?/,
  );
  assert.match(
    seat.receive({ type: "play-call", tool: "search_contacts", arguments: { phone: "1" } }) ?? "",
    /search_contacts has no argument phone/,
  );
  assert.match(seat.receive({ type: "play-say", text: "remove_contact(person_id=1)" }) ?? "", /reads as a tool call/);
  assert.equal(forms.at(-1)?.problem?.includes("reads as a tool call"), true, "the refusal is shown in the form");
  assert.equal(seat.receive({ type: "play-call", tool: "search_contacts", arguments: { phone_number: "+12453344098" } }), null);
  assert.equal(await line, 'search_contacts(phone_number="+12453344098")');
  assert.equal(seat.form.yourTurn, false);
  assert.equal(seat.form.problem, null);
  seat.finish();
  assert.equal(seat.form.ended, true);
  assert.match(seat.receive({ type: "play-quit" }) ?? "", /episode is over/);
});

/** Plays `name` through the form: the reference's calls and messages as the panel would send them, then quit if told. */
async function playThroughForm(name: string, requests: (scenario: Scenario) => PlayRequest[]) {
  const scenario = resolveScenario(scenarioText(name), scenarioPath(name));
  const { seat, forms, nextTurn } = seatOf(scenario);
  const out = tempDir();
  const [planned] = planJobs([{ file: scenarioPath(name), scenario }], 1, 0);
  const job = { ...planned!, trajectory: `${scenario.name}.run-1.trajectory.jsonl` };
  const playing = playJob(job, {
    agent: "scripted",
    user: "scripted",
    human: { as: "agent", role: createHumanAgent({ read: seat.read, refuse: seat.refuse }) },
    outDir: out,
    signal: new AbortController().signal,
    onEvent: (event) => seat.onEvent(event),
  });
  for (const request of requests(scenario)) {
    await nextTurn();
    if (seat.form.ended) break;
    assert.equal(seat.receive(request), null, JSON.stringify(request));
  }
  const { result } = await playing;
  seat.finish();
  return { result, forms, trajectory: readTrajectoryFile(join(out, job.trajectory)) };
}

const referenceRequests = (scenario: Scenario): PlayRequest[] =>
  scenario.reference.flatMap((step): PlayRequest[] => {
    if (step.kind === "agent_text") return [{ type: "play-say", text: step.text }];
    if (step.kind === "agent_calls") return step.calls.map((c) => ({ type: "play-call", tool: c.tool, arguments: c.arguments }));
    return [];
  });

test("a sample's reference played through the form is written as human's run and scores 1.0", async () => {
  const { result, trajectory, forms } = await playThroughForm("remove_contact_by_phone_adapted", referenceRequests);
  assert.equal(result.score, 1);
  assert.equal(trajectory.header.run.agent, "human");
  assert.equal(trajectory.evaluation?.score, 1);
  // The world changed under the form: the removed contact's phone number is no longer offered.
  const removedPhone = (form: PlayFormMessage | undefined): boolean =>
    form?.tools
      .find((t) => t.name === "search_contacts")
      ?.fields.find((f) => f.name === "phone_number")
      ?.suggestions.includes("+12453344098") ?? false;
  assert.equal(removedPhone(forms[0]), true);
  assert.equal(removedPhone(forms.filter((f) => f.yourTurn).at(-1)), false);
});

test("quitting from the form ends the episode as /quit does, scored on what was played", async () => {
  const { result, trajectory } = await playThroughForm("remove_contact_by_phone_adapted", (scenario) => [
    ...referenceRequests(scenario).slice(0, 1),
    { type: "play-quit" },
  ]);
  assert.equal(trajectory.end?.reason, "script_exhausted");
  assert.equal(trajectory.end?.detail, "the person playing the agent quit");
  assert.ok((result.score ?? 1) < 1, `score ${result.score}`);
});
