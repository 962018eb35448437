// The simulation's backend over the ToolTalk pack (engine/packs/tooltalk): its 28 tools, the
// published databases it is given (read from the user's copy, database-files.ts), and its runtime,
// which applies the executor's login rules and owns one Random(489) per tool. A reset builds all of
// it afresh, as ToolTalk's init_conversation_state reloads the databases and drops every tool instance.
import type { JsonObject } from "../../../base/json.js";
import { TOOLTALK_PACK, ToolTalkRuntime, runToolTalkCall, withConversationUser } from "../../../packs/tooltalk/index.js";
import { toolTalkApi } from "../../../packs/tooltalk/tools/apis.js";
import type { ScenarioClock } from "../../../world/clock.js";
import type { Tables } from "../../../world/types.js";
import { WorldTransaction } from "../../../world/transaction.js";
import type { ToolTalkBackend, ToolTalkExecution } from "./simulation.js";
import type { ToolTalkConversation, ToolTalkRequest } from "./types.js";

/**
 * ToolTalk's clock is the naive `metadata.timestamp`; the pack reads the clock's instant as wall
 * time in the clock's zone, so the timestamp as a UTC instant in zone UTC gives it back exactly.
 */
export function conversationClock(timestamp: string): ScenarioClock {
  const [date = "", time = ""] = timestamp.split(" ");
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute, second] = time.split(":").map(Number);
  const millis = Date.UTC(year ?? NaN, (month ?? NaN) - 1, day ?? NaN, hour ?? NaN, minute ?? NaN, second ?? NaN);
  if (!Number.isFinite(millis)) throw new RangeError(`not a ToolTalk timestamp: ${JSON.stringify(timestamp)}`);
  return { now: millis / 1000, timezone: "UTC" };
}

interface State {
  readonly world: WorldTransaction;
  readonly runtime: ToolTalkRuntime;
  readonly clock: ScenarioClock;
}

export class ToolTalkPackBackend implements ToolTalkBackend {
  private state: State | undefined;

  /** `databases`: ToolTalk's eight databases as rows, nobody logged in (readToolTalkDatabases). */
  constructor(private readonly databases: Tables) {}

  reset(conversation: ToolTalkConversation): void {
    const clock = conversationClock(conversation.metadata.timestamp);
    const tables = withConversationUser(this.databases, conversation.user);
    this.state = { world: new WorldTransaction(tables, TOOLTALK_PACK.schemas), runtime: ToolTalkRuntime.fresh(), clock };
  }

  execute(request: ToolTalkRequest): ToolTalkExecution {
    const state = this.state;
    if (!state) throw new Error("ToolTalkPackBackend.execute before reset");
    const record = runToolTalkCall(state.world, state.runtime, state.clock, request.api_name, request.parameters);
    // The pack returns the request it ran, with the session token written in where the tool needs one.
    const parameters: JsonObject = { ...(record.request.parameters ?? request.parameters) };
    return { request: { api_name: request.api_name, parameters }, response: record.response, exception: record.exception };
  }

  isAction(apiName: string): boolean {
    return toolTalkApi(apiName)?.definition.action === true;
  }
}
