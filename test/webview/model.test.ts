// The panel's model without a browser: the world rebuilt at any message, lines that do not fit
// refused, matches pinned to their messages, stepping through a filtered list, search.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cycle, NO_FILTER, searchHits, VisibleMessages } from "../../client/webview/model/navigation.js";
import { LineOrderError, PanelTrajectory } from "../../client/webview/model/panel-trajectory.js";
import type { PanelLine } from "../../engine/panel/protocol.js";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";
import { readLines, samplePath } from "./trajectories.js";

function load(name: string): PanelTrajectory {
  const checked = parseHostMessage({ type: "lines", lines: readLines(samplePath(name)) });
  assert.ok(checked.ok && checked.value.type === "lines");
  const [header, ...rest] = checked.value.lines as PanelLine[];
  assert.ok(header?.type === "header");
  const t = new PanelTrajectory(header);
  for (const line of rest) if (line.type !== "header") t.add(line);
  return t;
}

test("the world at every message is the one the engine's reader rebuilds", () => {
  for (const name of [
    "send_message_with_contact_content_cellular_off_adapted",
    "remove_contact_by_phone_adapted",
    "find_current_city_low_battery_mode_adapted",
  ]) {
    const panel = load(name);
    const engine = readTrajectoryFile(samplePath(name));
    assert.equal(panel.messages.length, engine.messages.length);
    for (let i = 0; i < engine.messages.length; i++) assert.deepEqual(panel.worldAt(i), engine.worldAt(i), `${name} at ${i}`);
  }
});

test("changes, matches and the turn count are pinned where the trajectory recorded them", () => {
  const t = load("send_message_with_contact_content_cellular_off_adapted");
  assert.deepEqual(
    t.changesAt(19).map((c) => `${c.op} ${c.table}`),
    ["update SETTING"],
  );
  assert.deepEqual(
    t.changesAt(22).map((c) => `${c.op} ${c.table}`),
    ["insert MESSAGING"],
  );
  assert.deepEqual(t.changesAt(21), []);
  assert.deepEqual(t.matchIndices(), [19, 22, 23]);
  assert.deepEqual(
    t
      .marksAt(19)
      .map((m) => m.node.id)
      .sort(),
    ["cellular_on", "found_contact"],
  );
  assert.equal(t.turnCount, 7);
});

test("a line that does not fit is refused and leaves the trajectory as it was", () => {
  const t = load("cellular_off_adapted");
  const before = t.worldAt(1000);
  assert.throws(() => t.add({ type: "message", message: { ...t.messages[0]!, sandbox_message_index: 3 } }), LineOrderError);
  const fresh = load("cellular_off_adapted");
  const lines = readLines(samplePath("cellular_off_adapted"));
  const header = parseHostMessage(lines[0]);
  assert.ok(header.ok && header.value.type === "header");
  const partial = new PanelTrajectory(header.value);
  const setting = header.value.scenario.world.tables.SETTING![0]!;
  // An update whose old values are not the row's current values.
  assert.throws(
    () =>
      partial.add({
        type: "world",
        index: 0,
        changes: [{ op: "update", table: "SETTING", position: 0, new_position: 0, old: { ...setting, wifi: !setting.wifi }, new: setting }],
      }),
    /the old values differ/,
  );
  assert.throws(
    () => partial.add({ type: "world", index: 0, changes: [{ op: "delete", table: "__proto__", position: 0, row: {} }] }),
    /there is no table __proto__/,
  );
  assert.throws(
    () => partial.add({ type: "world", index: 5, changes: [{ op: "insert", table: "CONTACT", position: 0, row: {} }] }),
    /ahead of the messages/,
  );
  assert.deepEqual(partial.worldAt(0), header.value.scenario.world.tables);
  assert.deepEqual(t.worldAt(1000), before);
  assert.equal(fresh.messages.length, t.messages.length);
  // After the end only an evaluation may come; a second evaluation replaces the first (a re-score).
  assert.throws(() => t.add({ type: "message", message: t.messages[0]! }), /follows the end/);
  const evaluation = t.evaluation!;
  t.add({ type: "evaluation", result: { ...evaluation, score: 0.25, milestones: [] } });
  assert.equal(t.evaluation?.score, 0.25);
  assert.deepEqual(t.matchIndices(), []);
});

test("stepping follows the role filter and search finds text in listed messages only", () => {
  const t = load("send_message_with_contact_content_cellular_off_adapted");
  const visible = new VisibleMessages(NO_FILTER);
  visible.reset(t.messages, NO_FILTER);
  assert.equal(visible.length, t.messages.length);
  assert.equal(visible.neighbour(3, 1), 4);
  assert.equal(visible.neighbour(null, -1), t.messages.length - 1);

  visible.reset(t.messages, { senders: new Set(["agent"]), seenBy: null, foldSetup: 0 });
  assert.ok(visible.all().every((i) => t.messages[i]!.sender === "agent"));
  assert.equal(visible.neighbour(17, 1), 18);
  assert.equal(visible.neighbour(19, 1), 21);
  assert.equal(visible.neighbour(19, -1), 18);
  assert.equal(visible.positionOf(19), -1);

  visible.reset(t.messages, { senders: NO_FILTER.senders, seenBy: "user", foldSetup: 0 });
  assert.ok(visible.all().every((i) => t.messages[i]!.visible_to.includes("user")));
  assert.ok(!visible.all().includes(17), "the agent's tool call is not on the user's view of the bus");

  visible.reset(t.messages, NO_FILTER);
  assert.deepEqual(searchHits(t, visible, "  ALBUM "), [15, 16, 21, 23]);
  assert.deepEqual(searchHits(t, visible, "search_contacts"), [17, 19]);
  assert.deepEqual(searchHits(t, visible, ""), []);
  assert.equal(cycle([14, 15, 20, 22], 22, 1), 14);
  assert.equal(cycle([14, 15, 20, 22], 14, -1), 22);
  assert.equal(cycle([14, 15, 20, 22], 16, 1), 20);
});
