// ToolTalk's 28 tools in its own listing order (ALL_APIS): suite by suite, as the model sees them.
import { ACCOUNT_APIS } from "./account.js";
import { ALARM_APIS } from "./alarm.js";
import type { ToolTalkApi } from "./api.js";
import { CALENDAR_APIS } from "./calendar.js";
import { EMAIL_APIS } from "./email.js";
import { MESSAGES_APIS } from "./messages.js";
import { REMINDER_APIS } from "./reminder.js";
import { WEATHER_APIS } from "./weather.js";

export const TOOLTALK_APIS: readonly ToolTalkApi[] = [
  ...ACCOUNT_APIS,
  ...ALARM_APIS,
  ...CALENDAR_APIS,
  ...EMAIL_APIS,
  ...MESSAGES_APIS,
  ...REMINDER_APIS,
  ...WEATHER_APIS,
];

const BY_NAME: ReadonlyMap<string, ToolTalkApi> = new Map(TOOLTALK_APIS.map((api) => [api.definition.name, api]));

export function toolTalkApi(name: string): ToolTalkApi | undefined {
  return BY_NAME.get(name);
}

/** ToolTalk's requires_auth of a tool: it needs a login, and gets the session token injected. Undefined for a name that is not a ToolTalk tool. */
export function requiresAuth(name: string): boolean | undefined {
  return BY_NAME.get(name)?.requiresAuth;
}
