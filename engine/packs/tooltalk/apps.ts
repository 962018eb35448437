// ToolTalk's tools by app: its seven suites, each an app (AccountTools named as a phone shows it),
// with what an agent choosing an app first (hierarchical selection) is shown. Every agent tool of
// the pack is in exactly one app (a test checks it). Transactional tools are its destructive ones:
// those that delete, overwrite or send, which an agent confirms with the user first (DialogTool).
// Adding an alarm, an event or a reminder, logging in or out and asking for a code are not.
import type { PackApp } from "../types.js";

export const TOOLTALK_APPS: readonly PackApp[] = [
  {
    name: "Account",
    description: "The user's account: log in and out, register, look up users, change the password or the account's details, delete it.",
    tools: [
      "ChangePassword",
      "DeleteAccount",
      "GetAccountInformation",
      "LogoutUser",
      "QueryUser",
      "RegisterUser",
      "ResetPassword",
      "SendVerificationCode",
      "UpdateAccountInformation",
      "UserLogin",
    ],
    transactional: ["ChangePassword", "DeleteAccount", "ResetPassword", "UpdateAccountInformation"],
  },
  {
    name: "Alarm",
    description: "Alarms: set, find and delete them.",
    tools: ["AddAlarm", "DeleteAlarm", "FindAlarms"],
    transactional: ["DeleteAlarm"],
  },
  {
    name: "Calendar",
    description: "The calendar: create, find, change and delete events and meetings.",
    tools: ["CreateEvent", "DeleteEvent", "ModifyEvent", "QueryCalendar"],
    transactional: ["DeleteEvent", "ModifyEvent"],
  },
  {
    name: "Email",
    description: "E-mail: search the inbox and send e-mails.",
    tools: ["SearchInbox", "SendEmail"],
    transactional: ["SendEmail"],
  },
  {
    name: "Messages",
    description: "Messages between users: search them and send one.",
    tools: ["SearchMessages", "SendMessage"],
    transactional: ["SendMessage"],
  },
  {
    name: "Reminder",
    description: "Reminders: add, list, complete and delete them.",
    tools: ["AddReminder", "CompleteReminder", "DeleteReminder", "GetReminders"],
    transactional: ["DeleteReminder"],
  },
  {
    name: "Weather",
    description: "The weather: current conditions, forecasts and past weather for a place.",
    tools: ["CurrentWeather", "ForecastWeather", "HistoricWeather"],
    transactional: [],
  },
];
