// When a predicted call counts as a ground-truth call: ToolTalk's `check_api_call_correctness` of
// each of its 28 tools (peers.md A.3), reproduced rule by rule, quirks included.
//
// Values compare with Python `==` (1 == 1.0 == True; lists and dicts by content). Where a Python
// rule would raise (a key it reads is missing, a response is null where it expects a list, a due
// date does not parse) ToolTalk's evaluation crashes; here the pair simply does not match, except
// that a null or malformed response holds no ids, so two calls failing with the same exception
// satisfy the id-subset rules. Free text uses `similarity.ts` instead of DistilBERT.
import type { JsonObject, JsonValue } from "../../../base/json.js";
import { isJsonObject } from "../../../base/json.js";
import { pyEquals } from "../../../python/values.js";
import { DATETIME_FORMAT, strptime } from "../../../packs/tooltalk/tools/strptime.js";
import { naiveFields } from "../../../tools/python-datetime.js";
import { ToolError } from "../../../tools/types.js";
import { ROUGE_L_SIMILARITY, textsAgree, type TextSimilarity } from "./similarity.js";
import type { ToolTalkCall, ToolTalkCallLike } from "./types.js";

export interface MatchOptions {
  /** The free-text scorer and its thresholds; ROUGE-L by default. */
  readonly similarity?: TextSimilarity;
}

type MatchRule = (prediction: ToolTalkCallLike, truth: ToolTalkCall, similarity: TextSimilarity) => boolean;

const has = (object: JsonObject, key: string): boolean => Object.hasOwn(object, key);

/** A prediction's arguments; a call whose arguments did not parse has none. */
const argumentsOf = (call: ToolTalkCallLike): JsonObject => call.request.parameters ?? {};

/** Every argument the ground truth gives is given, with an equal value, by the prediction. */
function givesTruthArguments(prediction: ToolTalkCallLike, truth: ToolTalkCall): boolean {
  const given = argumentsOf(prediction);
  return Object.entries(truth.request.parameters).every(([key, value]) => has(given, key) && pyEquals(given[key], value));
}

/** ToolTalk's base rule: same response, same exception, and the ground truth's arguments. */
const defaultRule: MatchRule = (prediction, truth) =>
  pyEquals(prediction.response, truth.response) && prediction.exception === truth.exception && givesTruthArguments(prediction, truth);

/** Same exception and the ground truth's arguments; the response (a generated id) is ignored. */
const ignoreResponse: MatchRule = (prediction, truth) => prediction.exception === truth.exception && givesTruthArguments(prediction, truth);

/** Both calls name a session token and it is the same (Python reads the key on both sides). */
function sameSessionToken(prediction: ToolTalkCallLike, truth: ToolTalkCall): boolean {
  const given = argumentsOf(prediction);
  const expected = truth.request.parameters;
  return has(given, "session_token") && has(expected, "session_token") && pyEquals(given["session_token"], expected["session_token"]);
}

/** The ids under `response[listKey][*][idKey]`; nothing when the response is not shaped so. */
function responseIds(response: JsonValue, listKey: string, idKey: string): (JsonValue | undefined)[] {
  const list = isJsonObject(response) ? response[listKey] : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((item) => (isJsonObject(item) && has(item, idKey) ? item[idKey] : undefined));
}

/** Every id the ground truth returned is among the ids the prediction returned. */
function coversIds(prediction: ToolTalkCallLike, truth: ToolTalkCall, listKey: string, idKey: string): boolean {
  const found = responseIds(prediction.response, listKey, idKey).filter((id) => id !== undefined);
  return responseIds(truth.response, listKey, idKey).every((id) => id !== undefined && found.some((f) => pyEquals(f, id)));
}

/**
 * Search tools: same exception and session token, and the ground truth's ids covered (a wider
 * search still counts); the search arguments themselves are not compared.
 */
function idsCovered(listKey: string, idKey: string): MatchRule {
  return (prediction, truth) =>
    prediction.exception === truth.exception && sameSessionToken(prediction, truth) && coversIds(prediction, truth, listKey, idKey);
}

/**
 * Arguments compared one by one: each ground-truth argument must be given and not null; the
 * free-text ones must agree in meaning, the others be equal. `requireResponse` adds ModifyEvent's
 * response check.
 */
function fieldwise(freeText: ReadonlySet<string>, requireResponse: boolean): MatchRule {
  return (prediction, truth, similarity) => {
    if (prediction.exception !== truth.exception) return false;
    if (requireResponse && !pyEquals(prediction.response, truth.response)) return false;
    const given = argumentsOf(prediction);
    return Object.entries(truth.request.parameters).every(([key, value]) => {
      const predicted = given[key];
      if (!has(given, key) || predicted === null || predicted === undefined) return false;
      return freeText.has(key) ? textsAgree(predicted, value, "strict", similarity) : pyEquals(predicted, value);
    });
  };
}

/** Python's `set(value)` as a set of comparable keys, or null where Python raises TypeError. */
function pySet(value: JsonValue | undefined): Set<string> | null {
  if (typeof value === "string") return new Set(Array.from(value, (ch) => `s${ch}`));
  if (isJsonObject(value)) return new Set(Object.keys(value).map((key) => `s${key}`));
  if (!Array.isArray(value)) return null;
  const keys = new Set<string>();
  for (const item of value) {
    if (typeof item === "string") keys.add(`s${item}`);
    else if (typeof item === "number" || typeof item === "boolean")
      keys.add(`n${Number(item)}`); // True == 1 == 1.0
    else if (item === null) keys.add("None");
    else return null; // lists and dicts are unhashable
  }
  return keys;
}

function sameSet(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const left = pySet(a);
  const right = pySet(b);
  return left !== null && right !== null && left.size === right.size && [...left].every((key) => right.has(key));
}

/** SendEmail: same recipients in any order; subject at the strict and body at the loose threshold. */
const sendEmail: MatchRule = (prediction, truth, similarity) => {
  if (prediction.exception !== truth.exception || !sameSessionToken(prediction, truth)) return false;
  const given = argumentsOf(prediction);
  const expected = truth.request.parameters;
  if (!has(given, "to") || !sameSet(given["to"], expected["to"])) return false;
  return (
    textsAgree(given["subject"], expected["subject"], "strict", similarity) &&
    textsAgree(given["body"], expected["body"], "loose", similarity)
  );
};

/**
 * SendMessage: the message at the loose threshold. ToolTalk compares the predicted receiver with
 * itself, so any receiver passes; the bug is kept so scores stay comparable. (Reading the key
 * still raises in Python when the prediction has none, so it must be present.)
 */
const sendMessage: MatchRule = (prediction, truth, similarity) => {
  if (prediction.exception !== truth.exception || !sameSessionToken(prediction, truth)) return false;
  const given = argumentsOf(prediction);
  return (
    has(given, "receiver") &&
    has(given, "message") &&
    textsAgree(given["message"], truth.request.parameters["message"], "loose", similarity)
  );
};

/** `strptime(value, "%Y-%m-%d %H:%M:%S").date()`, or null where Python raises. */
function calendarDay(value: JsonValue | undefined): string | null {
  if (value === undefined) return null;
  try {
    const { year, month, day } = naiveFields(strptime(value, DATETIME_FORMAT));
    return `${year}-${month}-${day}`;
  } catch (error) {
    if (error instanceof ToolError) return null;
    throw error;
  }
}

/** AddReminder: the due date counts by calendar day, the task by meaning; the response is ignored. */
const addReminder: MatchRule = (prediction, truth, similarity) => {
  if (prediction.exception !== truth.exception) return false;
  const given = argumentsOf(prediction);
  return Object.entries(truth.request.parameters).every(([key, value]) => {
    if (!has(given, key)) return false;
    const predicted = given[key];
    if (key === "due_date") {
      const predictedDay = calendarDay(predicted);
      return predictedDay !== null && predictedDay === calendarDay(value);
    }
    if (key === "task") return textsAgree(predicted, value, "strict", similarity);
    return pyEquals(predicted, value);
  });
};

/** GetReminders: the whole request equal (session token included), and the ids covered. */
const getReminders: MatchRule = (prediction, truth) =>
  pyEquals(prediction.request, truth.request) &&
  prediction.exception === truth.exception &&
  coversIds(prediction, truth, "reminders", "reminder_id");

/** Each tool's rule; a tool that is not listed is not a ToolTalk tool and matches nothing. */
export const MATCH_RULES: Readonly<Record<string, MatchRule>> = {
  // AccountTools
  ChangePassword: defaultRule,
  DeleteAccount: defaultRule,
  GetAccountInformation: defaultRule,
  LogoutUser: defaultRule,
  QueryUser: defaultRule,
  RegisterUser: defaultRule,
  ResetPassword: defaultRule,
  SendVerificationCode: defaultRule,
  UpdateAccountInformation: defaultRule,
  UserLogin: defaultRule,
  // Alarm
  AddAlarm: ignoreResponse,
  DeleteAlarm: defaultRule,
  FindAlarms: idsCovered("alarms", "alarm_id"),
  // Calendar
  CreateEvent: fieldwise(new Set(["name", "description", "location"]), false),
  DeleteEvent: defaultRule,
  ModifyEvent: fieldwise(new Set(["new_name", "new_description", "new_location"]), true),
  QueryCalendar: idsCovered("events", "event_id"),
  // Email
  SearchInbox: idsCovered("emails", "email_id"),
  SendEmail: sendEmail,
  // Messages
  SearchMessages: idsCovered("messages", "message_id"),
  SendMessage: sendMessage,
  // Reminder
  AddReminder: addReminder,
  CompleteReminder: defaultRule,
  DeleteReminder: defaultRule,
  GetReminders: getReminders,
  // Weather
  CurrentWeather: defaultRule,
  ForecastWeather: defaultRule,
  HistoricWeather: defaultRule,
};

/** Whether `prediction` counts as `truth`: the same tool, and that tool's rule accepts it. */
export function callsMatch(prediction: ToolTalkCallLike, truth: ToolTalkCall, options: MatchOptions = {}): boolean {
  if (prediction.request.api_name !== truth.request.api_name) return false;
  const rule = Object.hasOwn(MATCH_RULES, truth.request.api_name) ? MATCH_RULES[truth.request.api_name] : undefined;
  if (rule === undefined) return false;
  return rule(prediction, truth, options.similarity ?? ROUGE_L_SIMILARITY);
}
