// Runs the ground truth of an imported scenario once, in order, through the ToolTalk pack, exactly
// as the scenario's reference solution runs in an episode (one runtime, so the tools' id
// generators advance as they do there). What each call returned and changed is what the
// milestones are built from, so they agree with the tools by construction; and a call that does
// not end as the file records (it fails where the file says it succeeded, or the reverse) is a
// conversation the scenario could not reproduce, reported with the call's path.
import type { JsonValue } from "../../../base/json.js";
import { packById } from "../../../packs/registry.js";
import type { Scenario } from "../../../scenario/model.js";
import { WorldTransaction } from "../../../world/transaction.js";
import type { RowChange, Tables } from "../../../world/types.js";
import { ImportProblem } from "./problem.js";
import type { GroundTruthCall } from "./script.js";

interface ReplayedCall {
  readonly call: GroundTruthCall;
  readonly ok: boolean;
  /** The result on success, null on failure. */
  readonly result: JsonValue;
  /** The text the agent is shown (the exception text on failure). */
  readonly text: string;
  readonly changes: readonly RowChange[];
  /** The world just before and just after the call. */
  readonly before: Tables;
  readonly after: Tables;
}

/** Uuids are never drawn by ToolTalk's tools; a call that asks for one is a bug in the pack. */
function noUuids(): string {
  throw new Error("ToolTalk tools do not draw uuid4 ids");
}

export function replayGroundTruth(scenario: Scenario, calls: readonly GroundTruthCall[], file: string): ReplayedCall[] {
  const pack = packById("tooltalk");
  const runtime = pack.createRuntime();
  let world = new WorldTransaction(scenario.world.tables, pack.schemas);
  const clock = { now: scenario.clock.now, timezone: scenario.clock.timezone };
  return calls.map((call) => {
    const tool = pack.toolByName(call.tool);
    // The importer checked the names before building the scenario.
    if (!tool) throw new Error(`no ToolTalk tool ${call.tool}`);
    // A fresh transaction per call: its tables() shares no array a later call writes to.
    const before = world.tables();
    const outcome = runtime.execute(tool, call.arguments, { world, clock, web: scenario.web, uuid4: noUuids });
    const changes = world.changes();
    const after = world.tables();
    world = world.fork();
    const recordedOk = call.recorded.exception === null;
    if (outcome.ok !== recordedOk) {
      const what = outcome.ok
        ? "succeeds when replayed, but the file records the exception"
        : `fails when replayed (${outcome.text}), but the file records success`;
      throw new ImportProblem(file, call.path, `${call.tool} ${what}${outcome.ok ? ` ${JSON.stringify(call.recorded.exception)}` : ""}`);
    }
    return { call, ok: outcome.ok, result: outcome.ok ? outcome.result : null, text: outcome.text, changes, before, after };
  });
}
