// Replaying ToolTalk's own ground truth (78 conversations) through our tools. ToolTalk rebuilds
// every database and tool before each assistant turn and replays the ground-truth calls of the
// earlier turns (peers A.6); the ids in its recorded responses come from each tool's Random(489).
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { JsonObject } from "../../../../../engine/base/json.js";
import {
  TOOLTALK_PACK,
  ToolTalkRuntime,
  withConversationUser,
  type ToolTalkCallRecord,
} from "../../../../../engine/packs/tooltalk/index.js";
import { WorldTransaction } from "../../../../../engine/world/transaction.js";
import { loadConversations, type Conversation, type GroundTruthCall } from "./conversations.js";
import { utcSeconds } from "../../../../packs/tooltalk/harness.js";
import { toolTalkDatabases } from "../../published-data.js";

const CONVERSATIONS = loadConversations();

function fresh(c: Conversation) {
  const now = utcSeconds(c.timestamp);
  const world = new WorldTransaction(withConversationUser(toolTalkDatabases(), c.user), TOOLTALK_PACK.schemas);
  const runtime = ToolTalkRuntime.fresh();
  return (call: GroundTruthCall): ToolTalkCallRecord => runtime.call(world, { now, timezone: "UTC" }, call.api_name, call.parameters);
}

/** ToolTalk's loop: per assistant turn, a fresh state, the earlier turns' calls replayed, then this turn's calls. */
function replayPerTurn(c: Conversation): ToolTalkCallRecord[] {
  return c.turns.flatMap((calls, t) => {
    const run = fresh(c);
    for (const earlier of c.turns.slice(0, t).flat()) run(earlier);
    return calls.map(run);
  });
}

/** One continuous state for the whole conversation. */
function replayContinuously(c: Conversation): ToolTalkCallRecord[] {
  const run = fresh(c);
  return c.turns.flat().map(run);
}

test("78 conversations with 266 ground-truth calls are in ToolTalk's data", () => {
  assert.equal(CONVERSATIONS.length, 78);
  assert.equal(
    CONVERSATIONS.reduce((n, c) => n + c.turns.flat().length, 0),
    266,
  );
});

test("resetting and replaying before every turn gives the same outcomes as one continuous run", () => {
  for (const c of CONVERSATIONS) assert.deepEqual(replayPerTurn(c), replayContinuously(c), c.file);
});

// What ToolTalk's match functions compare of the response (peers A.3): the whole response, ids
// of the ground truth contained in ours (searches), or nothing (tools that create something).
const ID_SUBSET: Readonly<Record<string, readonly [string, string]>> = {
  FindAlarms: ["alarms", "alarm_id"],
  QueryCalendar: ["events", "event_id"],
  SearchInbox: ["emails", "email_id"],
  SearchMessages: ["messages", "message_id"],
  GetReminders: ["reminders", "reminder_id"],
};
const RESPONSE_IGNORED = new Set(["AddAlarm", "CreateEvent", "AddReminder", "SendEmail", "SendMessage"]);

function idsOf(response: JsonObject | null, [list, key]: readonly [string, string]): string[] {
  const items = response?.[list];
  return Array.isArray(items) ? items.map((item) => String((item as JsonObject)[key])) : [];
}

test("every ground-truth call reproduces what ToolTalk's match rules compare: the exception always, and the response or its ids", () => {
  for (const c of CONVERSATIONS) {
    replayContinuously(c).forEach((ours, i) => {
      const gt = c.turns.flat()[i]!;
      const where = `${c.file} call ${i + 1} (${gt.api_name})`;
      assert.equal(ours.exception, gt.exception, where);
      if (gt.response === null || RESPONSE_IGNORED.has(gt.api_name)) return;
      const subset = ID_SUBSET[gt.api_name];
      if (subset) {
        const found = new Set(idsOf(ours.response, subset));
        assert.ok(
          idsOf(gt.response, subset).every((id) => found.has(id)),
          where,
        );
      } else assert.deepEqual(ours.response, gt.response, where);
    });
  }
});

// Tools whose response is a generated id, and that id's format.
const ID_FORMATS: Readonly<Record<string, RegExp>> = {
  RegisterUser: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$/,
  UserLogin: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}$/,
  AddAlarm: /^[0-9a-f]{4}-[0-9a-f]{4}$/,
  CreateEvent: /^[0-9a-f]{8}-[0-9a-f]{4}$/,
  AddReminder: /^[0-9a-f]{2}-[0-9a-f]{4}$/,
  SendEmail: /^[0-9a-f]{2}-[0-9a-f]{4}-[0-9a-f]{8}$/,
  SendMessage: /^[0-9a-f]{8}-[0-9a-f]{8}$/,
};

type Flaw = "wrong key" | "repeats an earlier call's id" | "an earlier call's id, halves swapped" | "not in the tool's id format";

/** Ground-truth responses whose id no run of ToolTalk can produce: mistakes made when the data was written (peers A.8). */
const ANNOTATION_ERRORS: readonly { file: string; api: string; nth: number; flaw: Flaw }[] = [
  { file: "tooltalk/Alarm-Messages-Reminder-GetReminder-2.json", api: "AddAlarm", nth: 2, flaw: "an earlier call's id, halves swapped" },
  { file: "tooltalk/Alarm-Reminder-Weather-AddReminder-1.json", api: "AddReminder", nth: 1, flaw: "wrong key" },
  { file: "tooltalk/Alarm-Reminder-Weather-AddReminder-1.json", api: "AddReminder", nth: 2, flaw: "wrong key" },
  { file: "tooltalk/Alarm-Reminder-Weather-DeleteAlarm-2.json", api: "AddReminder", nth: 2, flaw: "not in the tool's id format" },
  { file: "tooltalk/Alarm-Reminder-Weather-FindAlarm-2.json", api: "AddReminder", nth: 2, flaw: "repeats an earlier call's id" },
  { file: "tooltalk/Calendar-Messages-Weather-SendMessage-1.json", api: "SendMessage", nth: 4, flaw: "repeats an earlier call's id" },
  { file: "tooltalk/Calendar-Messages-Weather-SendMessage-1.json", api: "SendMessage", nth: 5, flaw: "repeats an earlier call's id" },
  { file: "tooltalk/Calendar-Messages-Weather-SendMessage-1.json", api: "SendMessage", nth: 6, flaw: "repeats an earlier call's id" },
];

function hasFlaw(flaw: Flaw, api: string, gt: JsonObject, ours: JsonObject | null, earlier: readonly string[]): boolean {
  const id = String(Object.values(gt)[0]);
  if (flaw === "wrong key") return !isDeepStrictEqual(Object.keys(gt), Object.keys(ours ?? {}));
  if (flaw === "repeats an earlier call's id") return earlier.includes(id);
  if (flaw === "an earlier call's id, halves swapped") return earlier.includes(id.split("-").reverse().join("-"));
  return !ID_FORMATS[api]!.test(id);
}

test("generated ids match at least 103 of the 111 id-bearing ground-truth responses; the others are annotation errors", () => {
  let idBearing = 0;
  const mismatches: { file: string; api: string; nth: number; gt: JsonObject; ours: JsonObject | null; earlier: string[] }[] = [];
  for (const c of CONVERSATIONS) {
    const calls = c.turns.flat();
    const ours = replayContinuously(c);
    calls.forEach((gt, i) => {
      if (!(gt.api_name in ID_FORMATS) || gt.exception !== null || gt.response === null) return;
      idBearing++;
      if (isDeepStrictEqual(ours[i]!.response, gt.response)) return;
      const sameTool = calls.slice(0, i).filter((e) => e.api_name === gt.api_name);
      const earlier = sameTool.map((e) => String(Object.values(e.response ?? {})[0]));
      mismatches.push({ file: c.file, api: gt.api_name, nth: sameTool.length + 1, gt: gt.response, ours: ours[i]!.response, earlier });
    });
  }
  assert.equal(idBearing, 111);
  assert.ok(idBearing - mismatches.length >= 103, `${idBearing - mismatches.length} of ${idBearing} match`);
  assert.deepEqual(
    mismatches.map(({ file, api, nth }) => ({ file, api, nth })),
    ANNOTATION_ERRORS.map(({ file, api, nth }) => ({ file, api, nth })),
  );
  mismatches.forEach((m, i) => {
    const known = ANNOTATION_ERRORS[i]!;
    assert.ok(
      hasFlaw(known.flaw, m.api, m.gt, m.ours, m.earlier),
      `${m.file} ${m.api} #${m.nth}: ${known.flaw} (${JSON.stringify(m.gt)} vs ${JSON.stringify(m.ours)})`,
    );
  });
});
