// ToolTalk's tools by app: its seven suites, each an app (AccountTools named as a phone shows it).
// Every agent tool of the pack is in exactly one app (a test checks it).
import type { PackApp } from "../types.js";

export const TOOLTALK_APPS: readonly PackApp[] = [
  {
    name: "Account",
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
  },
  { name: "Alarm", tools: ["AddAlarm", "DeleteAlarm", "FindAlarms"] },
  { name: "Calendar", tools: ["CreateEvent", "DeleteEvent", "ModifyEvent", "QueryCalendar"] },
  { name: "Email", tools: ["SearchInbox", "SendEmail"] },
  { name: "Messages", tools: ["SearchMessages", "SendMessage"] },
  { name: "Reminder", tools: ["AddReminder", "CompleteReminder", "DeleteReminder", "GetReminders"] },
  { name: "Weather", tools: ["CurrentWeather", "ForecastWeather", "HistoricWeather"] },
];
