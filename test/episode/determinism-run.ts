// A run that touches everything seeded or time-dependent (ids, timestamps, calendar fields,
// parallel orderings). Run as a script it prints the events as JSON, so a test can compare runs
// made in processes with different timezones.
import type { EpisodeEvent } from "../../engine/episode/types.js";
import { agentSays, buildScenario, call, calls, endConversation, userSays } from "./fixtures.js";
import { runScenario } from "./harness.js";

export async function determinismEvents(seed: number): Promise<EpisodeEvent[]> {
  const scenario = buildScenario({
    reference: [
      calls(
        call("call_1", "add_contact", { name: "Lars Ulrich", phone_number: "+15550100" }),
        call("call_2", "add_reminder", { content: "Call Lars", reminder_timestamp: 1_700_100_000 }),
      ),
      calls(call("call_3", "timestamp_to_datetime_info", { timestamp: 1_700_000_000 }), call("call_4", "get_current_timestamp")),
      calls(call("call_5", "search_holiday", { holiday_name: "Thanksgiving" }), call("call_6", "set_wifi_status", { on: false })),
      agentSays("All done."),
      userSays("Also text Homer."),
      calls(call("call_7", "send_message_with_phone_number", { phone_number: "+10000000000", content: "Hi" })),
      agentSays("Sent."),
      endConversation,
    ],
  });
  const { events } = await runScenario(scenario, { seed });
  return events;
}

if (require.main === module) {
  const seed = Number(process.argv[2] ?? "1");
  void determinismEvents(seed).then((events) => process.stdout.write(JSON.stringify(events)));
}
