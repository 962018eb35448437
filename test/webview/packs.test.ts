// The panel reads the world pack from the trajectory header: it keys and orders a ToolTalk world
// by ToolTalk's tables, shows list cells, and refuses a header whose pack it does not know.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PanelTrajectory } from "../../client/webview/model/panel-trajectory.js";
import { parseHostMessage } from "../../client/webview/validate/host-messages.js";
import { cellText } from "../../client/webview/view/format.js";
import type { TrajectoryHeader } from "../../engine/episode/types.js";
import { check, expectClean } from "../scenario/helpers.js";

/** A ToolTalk world with one meeting and one e-mail, written in the scenario (no ToolTalk data ships). */
const WORLD =
  "world:\n  pack: tooltalk\n" +
  "  CALENDAR:\n    add:\n      - { username: ravi_sandoval, event_id: e-1, name: Picnic, event_type: meeting, " +
  'start_time: "2024-05-08 12:00:00", end_time: "2024-05-08 13:00:00", attendees: [ravi_sandoval, ines_moreau] }\n' +
  '  EMAIL:\n    add:\n      - { username: ravi_sandoval, email_id: m-1, date: "2024-05-06 08:00:00", sender: a@b.com, ' +
  "receivers: [ravi.sandoval@postbox.test], subject: Hi, body: Hello. }\n";

function tooltalkHeader(): TrajectoryHeader {
  const scenario = expectClean(check({ world: WORLD }));
  return {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "scripted", user: "scripted", seed: 0, options: {} },
  };
}

test("a tooltalk header passes the guards and the model uses ToolTalk's tables", () => {
  const header = tooltalkHeader();
  const checked = parseHostMessage(JSON.parse(JSON.stringify(header)));
  assert.ok(checked.ok && checked.value.type === "header", checked.ok ? "" : checked.error);
  const panel = new PanelTrajectory(checked.value);
  assert.equal(panel.schemas.get("CALENDAR")?.key, "event_id");
  assert.equal(panel.schemas.has("CONTACT"), false);
  const meeting = panel.worldAt(0).CALENDAR?.find((row) => Array.isArray(row.attendees));
  assert.ok(meeting);
  assert.equal(cellText(meeting.attendees), JSON.stringify(meeting.attendees));
});

test("a list change applies and its old row is recognised item by item", () => {
  const header = tooltalkHeader();
  const checked = parseHostMessage(JSON.parse(JSON.stringify(header)));
  assert.ok(checked.ok && checked.value.type === "header");
  const panel = new PanelTrajectory(checked.value);
  const rows = panel.worldAt(0).CALENDAR!;
  const position = rows.findIndex((row) => Array.isArray(row.attendees));
  const old = JSON.parse(JSON.stringify(rows[position])) as Record<string, unknown>;
  const line = parseHostMessage({
    type: "world",
    index: 0,
    changes: [{ op: "update", table: "CALENDAR", position, new_position: position, old, new: { ...old, attendees: ["ann"] } }],
  });
  assert.ok(line.ok && line.value.type === "world", line.ok ? "" : line.error);
  panel.add(line.value);
  assert.deepEqual(panel.worldAt(0).CALENDAR![position]!.attendees, ["ann"]);
});

test("an unknown pack or a list cell holding a number is rejected with the path to it", () => {
  const header = JSON.parse(JSON.stringify(tooltalkHeader())) as {
    scenario: { world: { pack: string; tables: Record<string, Record<string, unknown>[]> } };
  };
  const unknown = parseHostMessage({ ...header, scenario: { ...header.scenario, world: { ...header.scenario.world, pack: "tau" } } });
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok ? unknown.error : "", "/scenario/world/pack must be one of: toolsandbox, tooltalk");
  const tables = header.scenario.world.tables;
  const badItem = {
    ...header,
    scenario: {
      ...header.scenario,
      world: { ...header.scenario.world, tables: { ...tables, EMAIL: [{ ...tables.EMAIL![0], receivers: ["a", 1] }] } },
    },
  };
  const bad = parseHostMessage(badItem);
  assert.equal(bad.ok, false);
  assert.equal(!bad.ok ? bad.error : "", "/scenario/world/tables/EMAIL/0/receivers/1 must be a string");
});
