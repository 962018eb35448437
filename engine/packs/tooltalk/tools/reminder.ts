// ToolTalk's Reminder suite: the logged-in user's to-do list.
import type { JsonObject } from "../../../base/json.js";
import type { PythonRandom } from "../../../python/random.js";
import { ToolError } from "../../../tools/types.js";
import { apiException, arg, hex, stringParam, type ApiEnv, type Kwargs, type ToolTalkApi, loggedInSuiteTool } from "./api.js";
import { cellJson, deleteItem, findItem, ownedRows, putItem, toCell } from "./collections.js";
import { keyErrorText, pyEquals, pyStr, type PyValue } from "./python-semantics.js";
import { accountByToken } from "./login-session.js";
import { DATETIME_FORMAT, strptime } from "./strptime.js";
import { REMINDER } from "../tables.js";

/** The id of a new item, drawn from the tool's generator. */
function reminderIdOf(random: PythonRandom): string {
  return `${hex(random.randint(0, 0xff), 2)}-${hex(random.randint(0, 0xffff), 4)}`;
}

const SUITE = { module: "Reminder", domain: "Reminder" } as const;
const STATUS_SCHEMA: JsonObject = { type: "object", properties: { status: { type: "string" } } };
const REMINDER_FIELDS = ["reminder_id", "task", "due_date", "status"] as const;

const tool = loggedInSuiteTool(SUITE);

const REMINDER_ID = stringParam("reminder_id", "Id of the reminder.", true);
const NOT_FOUND = "Reminder … not found in database";

/**
 * Position of `database[username][reminder_id]`. A user who never had a reminder has no list at
 * all, and ToolTalk's lookup then fails with a KeyError naming the user.
 */
function reminderPosition(args: Kwargs, env: ApiEnv): { username: PyValue; position: number } {
  const username = accountByToken(env.world, arg(args, "session_token")).row.username ?? null;
  if (!env.collections.exists(env.world, REMINDER.name, username)) throw new ToolError("KeyError", keyErrorText(username));
  const reminderId = arg(args, "reminder_id");
  const position = findItem(env.world, REMINDER.name, "reminder_id", username, reminderId);
  if (position < 0) throw apiException(`Reminder ${pyStr(reminderId)} not found in database`);
  return { username, position };
}

const addReminder: ToolTalkApi = {
  definition: tool(
    "AddReminder",
    "Add a task to the user's reminders, optionally with a due date.",
    [stringParam("task", "What to be reminded of.", true), stringParam("due_date", "Optional. When it is due, %Y-%m-%d %H:%M:%S.", false)],
    "reminder_id: the new reminder's id.",
    { type: "object", properties: { reminder_id: { type: "string" } } },
    true,
    ["Invalid due_date: …"],
  ),
  requiresAuth: true,
  newId: reminderIdOf,
  call(args, { world, random, collections }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    // The user's list exists from here on, even if the due date is then refused.
    collections.keep(REMINDER.name, username);
    const dueDate = arg(args, "due_date");
    if (dueDate !== null) {
      try {
        strptime(dueDate, DATETIME_FORMAT);
      } catch (e) {
        // Only a ValueError becomes ToolTalk's message; a non-string still fails with its TypeError.
        if (e instanceof ToolError && e.pyType === "ValueError") throw apiException(`Invalid due_date: ${pyStr(dueDate)}`);
        throw e;
      }
    }
    const reminderId = reminderIdOf(random);
    putItem(world, REMINDER.name, "reminder_id", {
      username,
      reminder_id: reminderId,
      task: toCell(arg(args, "task")),
      due_date: toCell(dueDate),
      status: "pending",
    });
    return { reminder_id: reminderId };
  },
};

const completeReminder: ToolTalkApi = {
  definition: tool(
    "CompleteReminder",
    "Mark one of the user's reminders as done.",
    [REMINDER_ID],
    'status: "success" when it worked.',
    STATUS_SCHEMA,
    true,
    [NOT_FOUND, "Reminder … already completed", "'…' (KeyError: the user has no reminders)"],
  ),
  requiresAuth: true,
  call(args, env) {
    const { position } = reminderPosition(args, env);
    const reminder = env.world.rows(REMINDER.name)[position]!;
    if (pyEquals(reminder.status, "complete")) throw apiException(`Reminder ${pyStr(arg(args, "reminder_id"))} already completed`);
    env.world.updateAt(REMINDER.name, position, { status: "complete" });
    return { status: "success" };
  },
};

const deleteReminder: ToolTalkApi = {
  definition: tool(
    "DeleteReminder",
    "Remove one of the user's reminders.",
    [REMINDER_ID],
    'status: "success" when it worked.',
    STATUS_SCHEMA,
    true,
    [NOT_FOUND, "'…' (KeyError: the user has no reminders)"],
  ),
  requiresAuth: true,
  call(args, env) {
    const { position } = reminderPosition(args, env);
    deleteItem(env.world, env.collections, REMINDER.name, position);
    return { status: "success" };
  },
};

const getReminders: ToolTalkApi = {
  definition: tool(
    "GetReminders",
    "List all of the user's reminders, done or not.",
    [],
    'reminders: every reminder with its reminder_id, task, due_date and status ("pending" or "complete").',
    {
      type: "object",
      properties: {
        reminders: {
          type: "array",
          items: {
            type: "object",
            properties: {
              reminder_id: { type: "string" },
              task: { type: "string" },
              due_date: { type: "string" },
              status: { type: "string" },
            },
          },
        },
      },
    },
    false,
    [],
  ),
  requiresAuth: true,
  call(args, { world }) {
    const username = accountByToken(world, arg(args, "session_token")).row.username ?? null;
    const rows = ownedRows(world, REMINDER.name, username);
    return { reminders: rows.map((row) => Object.fromEntries(REMINDER_FIELDS.map((f) => [f, cellJson(row[f])]))) };
  },
};

export const REMINDER_APIS: readonly ToolTalkApi[] = [addReminder, completeReminder, deleteReminder, getReminders];
