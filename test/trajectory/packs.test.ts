// A trajectory names its world pack in the header: the reader rebuilds the world with that pack's
// tables (list cells included) and refuses a pack it does not know, at the wire.
import { test } from "node:test";
import assert from "node:assert/strict";
import trajectorySchema from "../../schemas/trajectory.schema.json";
import type { EpisodeEvent, TrajectoryHeader } from "../../engine/episode/types.js";
import { PACK_IDS } from "../../engine/packs/types.js";
import { TrajectoryError } from "../../engine/trajectory/errors.js";
import { parseTrajectory } from "../../engine/trajectory/reader.js";
import { checkLine } from "../../engine/trajectory/schema.js";
import { serializeLine } from "../../engine/trajectory/writer.js";
import type { Row } from "../../engine/world/types.js";
import { check, expectClean } from "../scenario/helpers.js";

function tooltalkHeader(): TrajectoryHeader {
  const meeting =
    "  CALENDAR:\n    add:\n      - { username: ravi_sandoval, event_id: e-1, name: Picnic, event_type: meeting, " +
    'start_time: "2024-05-08 12:00:00", end_time: "2024-05-08 13:00:00", attendees: [ravi_sandoval, ines_moreau] }\n';
  const scenario = expectClean(check({ world: `world:\n  pack: tooltalk\n${meeting}` }));
  return {
    type: "header",
    format: "toolsandbox-trajectory",
    version: 1,
    scenario,
    run: { agent: "scripted", user: "scripted", seed: 0, options: {} },
  };
}

test("a tooltalk trajectory with a list-cell change validates line by line and reads back with that pack's world", () => {
  const header = tooltalkHeader();
  const meeting = header.scenario.world.tables.CALENDAR!.findIndex((row) => Array.isArray(row.attendees));
  const old: Row = header.scenario.world.tables.CALENDAR![meeting]!;
  const updated: Row = { ...old, attendees: ["ravi_sandoval", "ines_moreau", "bo_lindqvist"] };
  const events: EpisodeEvent[] = [
    {
      type: "world",
      index: 0,
      changes: [{ op: "update", table: "CALENDAR", position: meeting, new_position: meeting, old, new: updated }],
    },
    { type: "end", reason: "max_messages", message_count: 0 },
  ];
  const text = [header, ...events].map(serializeLine).join("");
  for (const line of text.trimEnd().split("\n")) assert.deepEqual(checkLine(JSON.parse(line)), { ok: true, value: JSON.parse(line) });
  const trajectory = parseTrajectory(text, "tooltalk.trajectory.jsonl");
  assert.equal(trajectory.header.scenario.world.pack, "tooltalk");
  assert.deepEqual(trajectory.worldAt(0).CALENDAR![meeting]!.attendees, ["ravi_sandoval", "ines_moreau", "bo_lindqvist"]);
  assert.deepEqual(trajectory.world.schemas.get("CALENDAR")?.key, "event_id");
});

test("a header naming an unknown pack is refused at the wire", () => {
  const header = tooltalkHeader();
  const text = serializeLine({
    ...header,
    scenario: { ...header.scenario, world: { ...header.scenario.world, pack: "tau" as "tooltalk" } },
  });
  assert.throws(
    () => parseTrajectory(text, "t.trajectory.jsonl"),
    (e: unknown) =>
      e instanceof TrajectoryError && e.line === 1 && /\/scenario\/world\/pack must be one of: toolsandbox, tooltalk/.test(e.reason),
  );
});

test("the trajectory schema lists exactly the registered packs", () => {
  const defs = (trajectorySchema as { $defs: { scenario: { properties: { world: { properties: { pack: { enum: string[] } } } } } } }).$defs;
  assert.deepEqual(defs.scenario.properties.world.properties.pack.enum, [...PACK_IDS]);
});
