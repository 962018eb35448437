import { test } from "node:test";
import assert from "node:assert/strict";
import type { JsonObject, JsonValue } from "../../../../engine/base/json.js";
import { conversationErrorTypes, sumErrorTypes } from "../../../../engine/benchmarks/tooltalk/evaluation/error-types.js";
import { aggregateConversations, scoreConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/metrics.js";
import type { ToolTalkCall, ToolTalkCallRecord, ToolTalkTurnRun } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";

const TOKEN = "tok";
const ACTIONS = new Set(["AddAlarm", "DeleteAlarm", "SendMessage", "SendEmail"]);
const isAction = (name: string): boolean => ACTIONS.has(name);

function truth(api_name: string, parameters: JsonObject, response: JsonValue = { status: "success" }): ToolTalkCall {
  return { request: { api_name, parameters: { session_token: TOKEN, ...parameters } }, response, exception: null };
}

function predicted(
  api_name: string,
  parameters: JsonObject,
  response: JsonValue = { status: "success" },
  exception: string | null = null,
): ToolTalkCallRecord {
  return { role: "api", request: { api_name, parameters: { session_token: TOKEN, ...parameters } }, response, exception, metadata: null };
}

function turn(position: number, apis: ToolTalkCall[], calls: ToolTalkCallRecord[]): ToolTalkTurnRun {
  return { position, text: "done", apis, predictions: [...calls, { role: "assistant", text: "done" }], step_cap_reached: false };
}

// Two turns. Turn 1: a search that finds more than needed (match), a wrong alarm (a bad action),
// the right alarm (match). Turn 2: a delete that fails (an action, not a bad one) and a weather
// lookup nobody asked for (not an action). 5 predictions, 3 ground truths, 2 matches, 3 actions,
// 1 valid, 1 bad.
const MIXED: ToolTalkTurnRun[] = [
  turn(
    1,
    [truth("AddAlarm", { time: "06:30:00" }, { alarm_id: "a1" }), truth("FindAlarms", {}, { alarms: [{ alarm_id: "a" }] })],
    [
      predicted("FindAlarms", { start_range: "00:00:00" }, { alarms: [{ alarm_id: "a" }, { alarm_id: "b" }] }),
      predicted("AddAlarm", { time: "07:00:00" }, { alarm_id: "x" }),
      predicted("AddAlarm", { time: "06:30:00" }, { alarm_id: "y" }),
    ],
  ),
  turn(
    3,
    [truth("DeleteAlarm", { alarm_id: "a" })],
    [
      predicted("DeleteAlarm", { alarm_id: "zz" }, null, "Alarm zz not found."),
      predicted("CurrentWeather", { location: "Paris" }, { weather: 1 }),
    ],
  ),
];

test("a conversation's metrics, computed by hand", () => {
  const { metrics, turns } = scoreConversation(MIXED, isAction);
  assert.deepEqual(
    { ...metrics },
    {
      predictions: 5,
      ground_truths: 3,
      matches: 2,
      actions: 3,
      valid_actions: 1,
      bad_actions: 1,
      precision: 2 / 5,
      recall: 2 / 3,
      action_precision: 1 / 3,
      bad_action_rate: 1 / 3,
      success: false,
      soft_success: (2 / 3) * (1 - 1 / 3),
    },
  );
  const verdicts = turns.flatMap((t) =>
    t.predictions.flatMap((p) => (p.role === "api" ? [[p.request.api_name, p.match, p.is_action, p.bad_action]] : [])),
  );
  assert.deepEqual(verdicts, [
    ["FindAlarms", true, false, false],
    ["AddAlarm", false, true, true],
    ["AddAlarm", true, true, false],
    ["DeleteAlarm", false, true, false], // failed, so not bad
    ["CurrentWeather", false, false, false],
  ]);
  assert.deepEqual(
    turns.map((t) => t.apis.map((a) => a.match)),
    [[true, true], [false]],
  );
  assert.equal(turns[1]?.predictions.at(-1)?.role, "assistant");
});

test("matching is global across turns: a call made a turn late still counts", () => {
  const turns = [
    turn(1, [truth("SendMessage", { receiver: "a", message: "Are you coming to the canoe race on Sunday?" })], []),
    turn(
      3,
      [truth("SendMessage", { receiver: "b", message: "Meet me at the bakery tomorrow at 10." })],
      [
        predicted("SendMessage", { receiver: "b", message: "Meet me at the bakery tomorrow at 10." }),
        predicted("SendMessage", { receiver: "a", message: "Are you coming to the canoe race on Sunday?" }),
      ],
    ),
  ];
  const { metrics } = scoreConversation(turns, isAction);
  assert.equal(metrics.recall, 1);
  assert.equal(metrics.precision, 1);
  assert.equal(metrics.success, true);
});

test("matching is greedy in prediction order: the first acceptable ground truth is taken, even if a later choice would match more", () => {
  const turns = [
    turn(
      1,
      [
        truth("FindAlarms", {}, { alarms: [{ alarm_id: "a" }] }),
        truth("FindAlarms", {}, { alarms: [{ alarm_id: "a" }, { alarm_id: "b" }] }),
      ],
      [
        predicted("FindAlarms", {}, { alarms: [{ alarm_id: "a" }, { alarm_id: "b" }] }),
        predicted("FindAlarms", {}, { alarms: [{ alarm_id: "a" }] }),
      ],
    ),
  ];
  const { metrics, turns: scored } = scoreConversation(turns, isAction);
  assert.equal(metrics.matches, 1); // an optimal assignment would match both
  assert.deepEqual(
    scored[0]?.apis.map((a) => a.match),
    [true, false],
  );
  assert.equal(metrics.success, false);
  assert.equal(metrics.bad_actions, 0, "FindAlarms is not an action");
});

test("empty denominators follow ToolTalk: no predictions gives precision 0; no actions gives action precision 1 and no bad rate", () => {
  const { metrics } = scoreConversation([turn(1, [truth("FindAlarms", {}, { alarms: [] })], [])], isAction);
  assert.equal(metrics.precision, 0);
  assert.equal(metrics.recall, 0);
  assert.equal(metrics.action_precision, 1);
  assert.equal(metrics.bad_action_rate, 0);
  assert.equal(metrics.success, false);
  assert.equal(metrics.soft_success, 0);
});

test("a data set: micro ratios of summed counts, macro success rate", () => {
  const perfect = scoreConversation(
    [turn(1, [truth("AddAlarm", { time: "06:30:00" })], [predicted("AddAlarm", { time: "06:30:00" })])],
    isAction,
  ).metrics;
  const mixed = scoreConversation(MIXED, isAction).metrics;
  const total = aggregateConversations([mixed, perfect]);
  assert.equal(total.episodes, 2);
  assert.equal(total.micro.precision, 3 / 6); // the macro mean would be (0.4 + 1) / 2 = 0.7
  assert.equal(total.micro.recall, 3 / 4); // macro: (2/3 + 1) / 2
  assert.equal(total.micro.action_precision, 2 / 4);
  assert.equal(total.micro.bad_action_rate, 1 / 4);
  assert.equal(total.success_rate, 1 / 2);
  assert.equal(total.soft_success_rate, ((2 / 3) * (2 / 3) + 1) / 2);
});

test("error types of a failed conversation: over-trigger, bad planning, bad call", () => {
  const turns = [
    // No ground truth, one bad action and one failed action: one over-trigger.
    turn(1, [], [predicted("AddAlarm", { time: "08:00:00" }), predicted("DeleteAlarm", { alarm_id: "q" }, null, "Alarm q not found.")]),
    // The right tool, called wrongly: bad call.
    turn(
      3,
      [truth("SendEmail", { to: ["a@x.com"], subject: "Trip", body: "I will be in Paris next week." })],
      [predicted("SendEmail", { to: ["b@x.com"], subject: "Trip", body: "I will be in Paris next week." })],
    ),
    // The tool called more often than the ground truth calls it: bad planning.
    turn(
      5,
      [truth("AddAlarm", { time: "06:30:00" })],
      [predicted("AddAlarm", { time: "06:00:00" }), predicted("AddAlarm", { time: "07:00:00" })],
    ),
    // Another tool than expected: bad planning.
    turn(7, [truth("DeleteAlarm", { alarm_id: "a" })], [predicted("FindAlarms", {}, { alarms: [] })]),
    // Nothing called where a call was expected: bad planning.
    turn(9, [truth("DeleteAlarm", { alarm_id: "b" })], []),
    // All matched: nothing to count.
    turn(11, [truth("DeleteAlarm", { alarm_id: "c" })], [predicted("DeleteAlarm", { alarm_id: "c" })]),
  ];
  const score = scoreConversation(turns, isAction);
  assert.equal(score.metrics.success, false);
  const errors = conversationErrorTypes(score);
  assert.deepEqual({ ...errors }, { "over-trigger": 1, "bad planning": 3, "bad call": 1 });

  const success = scoreConversation([turn(1, [], [predicted("CurrentWeather", { location: "x" }, {})])], isAction);
  assert.equal(success.metrics.success, true, "no ground truth: recall 1, and a read is never bad");
  assert.deepEqual({ ...conversationErrorTypes(success) }, { "over-trigger": 0, "bad planning": 0, "bad call": 0 });
  assert.deepEqual({ ...sumErrorTypes([errors, errors]) }, { "over-trigger": 2, "bad planning": 6, "bad call": 2 });
});
