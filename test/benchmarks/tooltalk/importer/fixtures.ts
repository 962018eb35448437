// Small ToolTalk conversations for the importer's tests, read through the same reader as the data.
// The user is mira_okafor of our own fixture's databases (test/fixtures/tooltalk/databases/), so a
// conversation imports against them as a published one does against ToolTalk's.
import type { JsonObject } from "../../../../engine/base/json.js";
import { parseConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/conversation.js";
import type { ToolTalkConversation } from "../../../../engine/benchmarks/tooltalk/evaluation/types.js";
import { importConversation, type ImportedScenario } from "../../../../engine/benchmarks/tooltalk/importer/import-conversation.js";
import { toolTalkDatabases } from "../../../fixtures/tooltalk-data.js";

/** mira_okafor's session token in these conversations. */
export const TOKEN = "7f3e-1c2a-90b4-d5e6";

/** mira_okafor, logged in, at 2024-03-13 08:00:00 in Lisbon, unless `changes` say otherwise. */
export function conversation(turns: readonly JsonObject[], changes: JsonObject = {}, name = "Test-Conversation-0"): ToolTalkConversation {
  const file = {
    name,
    conversation_id: "test",
    suites_used: ["Alarm"],
    apis_used: ["AddAlarm"],
    scenario: "The user wants an alarm.",
    user: {
      username: "mira_okafor",
      email: "mira.okafor@fmail.com",
      phone: "555-201-3344",
      name: "Mira Okafor",
      password: "tidepool-88",
      session_token: TOKEN,
    },
    metadata: { location: "Lisbon", timestamp: "2024-03-13 08:00:00", session_token: TOKEN, username: "mira_okafor" },
    conversation: turns.map((turn, index) => ({ index, ...turn })),
    ...changes,
  };
  return parseConversation(JSON.stringify(file), "test.json");
}

export const user = (text: string): JsonObject => ({ role: "user", text });

export function assistant(text: string, calls: readonly [string, JsonObject, JsonObject | null][] = []): JsonObject {
  return {
    role: "assistant",
    text,
    ...(calls.length > 0
      ? { apis: calls.map(([api_name, parameters, response]) => ({ request: { api_name, parameters }, response, exception: null })) }
      : {}),
  };
}

/**
 * Three turns over the calendar, messages, e-mail, reminders and alarms of our fixture's databases:
 * mira_okafor finds Tomas's text, books a meeting with him (CreateEvent, attendees), looks for his
 * e-mail, then adds him to her pottery class (ModifyEvent), drops a reminder and an alarm. The
 * responses are what the ToolTalk pack answers, so the ground truth replays with precision = recall = 1.
 */
export function gardenConversation(): ToolTalkConversation {
  return conversation(
    [
      user("Did Tomas text me about the seeds?"),
      assistant("Yes: last night Tomas asked whether he should bring the seeds on Saturday.", [
        [
          "SearchMessages",
          { session_token: TOKEN, query: "seeds", sender: "tomas_lind" },
          {
            messages: [
              {
                message_id: "a0b1c2d3-e4f5a6b7",
                timestamp: "2024-03-12 20:05:00",
                sender: "tomas_lind",
                message: "Seeds arrived, shall I bring them on Saturday?",
              },
            ],
          },
        ],
      ]),
      user("Book a seed swap with him at the community garden, Saturday 10 to 11. Did he e-mail me about the plot too?"),
      assistant("The seed swap is in your calendar with Tomas, and yes: he asked you to water the plot on Thursday.", [
        [
          "CreateEvent",
          {
            session_token: TOKEN,
            name: "Seed swap",
            event_type: "meeting",
            start_time: "2024-03-16 10:00:00",
            end_time: "2024-03-16 11:00:00",
            description: "Bring the tomato seeds",
            location: "Community garden",
            attendees: ["tomas_lind"],
          },
          { event_id: "e149636f-d9ca" },
        ],
        [
          "SearchInbox",
          { session_token: TOKEN, query: "plot" },
          {
            emails: [
              {
                email_id: "4d-91ac-0b7e23f1",
                date: "2024-03-11 09:15:00",
                sender: "tlind@gahoo.com",
                receivers: ["mira.okafor@fmail.com"],
                subject: "Garden plot rota",
                body: "Hi Mira,\n\nCould you water the plot on Thursday? I am away.\n\nTomas",
              },
            ],
          },
        ],
      ]),
      user("Add Tomas to my pottery class as well. And delete my library card reminder and my 6:45 alarm, I no longer need them."),
      assistant("Tomas is on the pottery class, and the reminder and the alarm are gone.", [
        [
          "ModifyEvent",
          { session_token: TOKEN, event_id: "3f0a9c21-77b4", new_attendees: ["mira_okafor", "tomas_lind"] },
          { status: "success" },
        ],
        ["DeleteReminder", { session_token: TOKEN, reminder_id: "5e-6f70" }, { status: "success" }],
        ["DeleteAlarm", { session_token: TOKEN, alarm_id: "0c1d-2e3f" }, { status: "success" }],
      ]),
      user("Lovely, thanks."),
    ],
    {
      suites_used: ["Calendar", "Messages", "Reminder"],
      apis_used: ["SearchMessages", "CreateEvent", "SearchInbox", "ModifyEvent", "DeleteReminder", "DeleteAlarm"],
      scenario: "Mira arranges a seed swap with Tomas and tidies her calendar, reminders and alarms.",
    },
    "Calendar-Messages-Reminder-CreateEvent-0",
  );
}

/** `gardenConversation` imported against our fixture's databases, with no modeline. */
export function gardenScenario(): ImportedScenario {
  return importConversation(gardenConversation(), { schemaPath: null, databases: toolTalkDatabases() });
}
