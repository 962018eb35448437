// Scenario names for imported conversations. A scenario name is `[a-z0-9_]+` and names the output
// file and the trajectory, so ToolTalk's names ("AccountTools-Alarm-Calendar-AddAlarm-0",
// "golden_conversation_1") become snake case behind a `tooltalk_` prefix, which keeps them apart
// from ToolSandbox's scenarios when both suites run together.

const PREFIX = "tooltalk_";

/** "AccountTools-Alarm-AddAlarm-0" -> "tooltalk_account_tools_alarm_add_alarm_0"; null when nothing usable is left. */
export function scenarioNameFor(conversationName: string): string | null {
  const words = conversationName
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return words === "" ? null : `${PREFIX}${words}`;
}

export const SCENARIO_FILE_SUFFIX = ".scenario.yaml";
