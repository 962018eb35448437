import { test } from "node:test";
import assert from "node:assert/strict";
import { parseConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation.js";
import { groundTruthPredictor } from "../../../../engine/benchmarks/tooltalk/evaluation/ground-truth-predictor.js";
import {
  DEFAULT_MAX_CALLS_PER_TURN,
  PARSE_FAILURE,
  runConversation,
  simulateConversation,
  type ToolTalkBackend,
  type ToolTalkExecution,
  type ToolTalkPredictor,
} from "../../../../engine/benchmarks/tooltalk/evaluation/simulation.js";
import type { ToolTalkHistoryEntry, ToolTalkPrediction, ToolTalkRequest } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";

/**
 * A stand-in for the ToolTalk pack: every call succeeds with a counter that restarts on reset,
 * and the session token is written into the request, as the executor does.
 */
class CountingBackend implements ToolTalkBackend {
  readonly log: string[] = [];
  private count = 0;
  reset(): void {
    this.log.push("reset");
    this.count = 0;
  }
  execute(request: ToolTalkRequest): ToolTalkExecution {
    this.log.push(request.api_name);
    this.count++;
    return {
      request: { api_name: request.api_name, parameters: { ...request.parameters, session_token: "live" } },
      response: { n: this.count },
      exception: null,
    };
  }
  isAction(name: string): boolean {
    return name === "AddAlarm";
  }
}

const CONVERSATION = parseConversation(
  JSON.stringify({
    name: "two turns",
    conversation_id: "t",
    suites_used: ["Alarm"],
    apis_used: ["AddAlarm", "FindAlarms"],
    user: { username: "u", email: "u@x.com", phone: "123-456-7890", name: "U", password: "p", session_token: "live" },
    metadata: { location: "Here", timestamp: "2023-09-11 09:00:00", session_token: "live", username: "u" },
    conversation: [
      { index: 0, role: "user", text: "Set two alarms" },
      {
        index: 1,
        role: "assistant",
        text: "Both set",
        apis: [
          {
            request: { api_name: "AddAlarm", parameters: { session_token: "recorded", time: "06:00:00" } },
            response: { alarm_id: "gt-1" },
            exception: null,
          },
          { request: { api_name: "AddAlarm", parameters: { time: "07:00:00" } }, response: { alarm_id: "gt-2" }, exception: null },
        ],
      },
      { index: 2, role: "user", text: "And one more" },
      {
        index: 3,
        role: "assistant",
        text: "Done",
        apis: [
          {
            request: { api_name: "AddAlarm", parameters: { session_token: "live", time: "08:00:00" } },
            response: { alarm_id: "gt-3" },
            exception: null,
          },
        ],
      },
      { index: 4, role: "user", text: "Thanks" },
    ],
  }),
  "two-turns.json",
);

/** Records what it was shown and answers from a script. */
function scripted(
  answers: (history: readonly ToolTalkHistoryEntry[]) => ToolTalkPrediction,
): ToolTalkPredictor & { seen: ToolTalkHistoryEntry[][] } {
  const seen: ToolTalkHistoryEntry[][] = [];
  return {
    seen,
    predict(_metadata, history) {
      seen.push([...history]);
      return answers(history);
    },
  };
}

test("each assistant turn starts from a reset, replays the earlier ground truth, then runs the predictor's calls", async () => {
  const backend = new CountingBackend();
  const result = await runConversation(CONVERSATION, backend, groundTruthPredictor(CONVERSATION));
  assert.deepEqual(backend.log, ["reset", "AddAlarm", "AddAlarm", "reset", "AddAlarm", "AddAlarm", "AddAlarm"]);
  assert.equal(result.metrics.precision, 1);
  assert.equal(result.metrics.recall, 1);
  assert.equal(result.metrics.success, true);
  assert.deepEqual(
    result.turns.map((t) => t.position),
    [1, 3],
  );
  // The predicted calls carry the session token the backend wrote in; the reply comes last.
  assert.deepEqual(result.turns[1]?.predictions, [
    {
      role: "api",
      request: { api_name: "AddAlarm", parameters: { time: "08:00:00", session_token: "live" } },
      response: { n: 3 },
      exception: null,
      metadata: null,
      match: true,
      is_action: true,
      bad_action: false,
    },
    { role: "assistant", text: "Done" },
  ]);
});

test("the predictor sees the ground-truth history: texts and calls with their recorded outcomes, replayed requests", async () => {
  const predictor = scripted((history) => ({ role: "assistant", text: `reply after ${history.length}` }));
  const runs = await simulateConversation(CONVERSATION, new CountingBackend(), predictor);
  assert.deepEqual(predictor.seen[0], [{ role: "user", text: "Set two alarms" }]);
  assert.deepEqual(predictor.seen[1], [
    { role: "user", text: "Set two alarms" },
    // The recorded token was replaced by the one the replay injected; the response is the recorded one.
    {
      role: "api",
      request: { api_name: "AddAlarm", parameters: { session_token: "live", time: "06:00:00" } },
      response: { alarm_id: "gt-1" },
      exception: null,
    },
    {
      role: "api",
      request: { api_name: "AddAlarm", parameters: { time: "07:00:00", session_token: "live" } },
      response: { alarm_id: "gt-2" },
      exception: null,
    },
    { role: "assistant", text: "Both set" },
    { role: "user", text: "And one more" },
  ]);
  assert.equal(predictor.seen.length, 2, "the trailing user turn asks for nothing");
  // The ground truth of the first turn, as evaluated, is the replayed request; the last turn's is never replayed.
  assert.deepEqual(
    runs[0]?.apis.map((a) => a.request.parameters["session_token"]),
    ["live", "live"],
  );
  assert.deepEqual(runs[1]?.apis[0]?.request.parameters, { session_token: "live", time: "08:00:00" });
});

test("arguments the predictor could not parse are recorded as a failed call and never run", async () => {
  const backend = new CountingBackend();
  let step = 0;
  const predictor = scripted(() =>
    step++ % 2 === 0
      ? { role: "api", request: { api_name: "AddAlarm", parameters: null }, metadata: { raw: "{oops" } }
      : { role: "assistant", text: "sorry" },
  );
  const result = await runConversation(CONVERSATION, backend, predictor);
  assert.deepEqual(result.turns[0]?.predictions[0], {
    role: "api",
    request: { api_name: "AddAlarm", parameters: null },
    response: null,
    exception: PARSE_FAILURE,
    metadata: { raw: "{oops" },
    match: false,
    is_action: true,
    bad_action: false,
  });
  assert.ok(!backend.log.slice(0, 1).includes("AddAlarm") && backend.log[1] === "reset", "nothing ran in the first turn");
  // The second turn sees the failed call in its own working history only.
  assert.equal(predictor.seen[1]?.at(-1)?.role, "api");
  assert.equal(result.metrics.recall, 0);
  assert.equal(PARSE_FAILURE, "Failed to parse API call");
});

test("a turn runs at most maxCallsPerTurn calls; a further call cuts it off, and the next turn still runs", async () => {
  const predictor = scripted(() => ({ role: "api", request: { api_name: "FindAlarms", parameters: {} } }));
  const backend = new CountingBackend();
  const runs = await simulateConversation(CONVERSATION, backend, predictor, { maxCallsPerTurn: 3 });
  assert.deepEqual(
    runs.map((r) => [r.predictions.length, r.step_cap_reached]),
    [
      [3, true],
      [3, true],
    ],
  );
  assert.ok(runs.every((r) => r.predictions.every((p) => p.role === "api")));
  // Three calls run per turn; the fourth request of each turn is neither run nor recorded.
  assert.equal(backend.log.filter((entry) => entry === "FindAlarms").length, 6);
  assert.equal(predictor.seen.length, 8);

  const defaultRuns = await simulateConversation(CONVERSATION, new CountingBackend(), predictor);
  assert.equal(DEFAULT_MAX_CALLS_PER_TURN, 20);
  assert.equal(defaultRuns[0]?.predictions.length, 20);

  // After its last allowed call the predictor may still reply: two calls and a reply fit a cap of two.
  const replying = await simulateConversation(CONVERSATION, new CountingBackend(), groundTruthPredictor(CONVERSATION), {
    maxCallsPerTurn: 2,
  });
  assert.deepEqual(
    replying.map((r) => [r.predictions.length, r.step_cap_reached]),
    [
      [3, false],
      [2, false],
    ],
  );
  const cut = await simulateConversation(CONVERSATION, new CountingBackend(), groundTruthPredictor(CONVERSATION), { maxCallsPerTurn: 1 });
  assert.deepEqual(
    cut.map((r) => [r.predictions.length, r.step_cap_reached]),
    [
      [1, true],
      [2, false],
    ],
  );
  await assert.rejects(simulateConversation(CONVERSATION, new CountingBackend(), predictor, { maxCallsPerTurn: 0 }), RangeError);
});

test("asynchronous predictors are awaited, and an abort stops the run", async () => {
  const ground = groundTruthPredictor(CONVERSATION);
  const slow: ToolTalkPredictor = { predict: async (metadata, history) => ground.predict(metadata, history) };
  const result = await runConversation(CONVERSATION, new CountingBackend(), slow);
  assert.equal(result.metrics.success, true);

  const controller = new AbortController();
  controller.abort(new Error("stopped"));
  await assert.rejects(simulateConversation(CONVERSATION, new CountingBackend(), slow, { signal: controller.signal }), /stopped/);
});

test("the ground-truth predictor drops the session token and refuses a history it cannot place", () => {
  const predictor = groundTruthPredictor(CONVERSATION);
  const first = predictor.predict(CONVERSATION.metadata, [{ role: "user", text: "Set two alarms" }]);
  assert.deepEqual(first, { role: "api", request: { api_name: "AddAlarm", parameters: { time: "06:00:00" } } });
  assert.throws(() => predictor.predict(CONVERSATION.metadata, []), /does not end before an assistant turn/);
});
