// The cases tool creation runs for ToolSandbox's tools: for each tool, ordinary calls, odd inputs
// (wrong types, unknown ids, nothing to change) and the world states its outcome depends on (a
// service off, low battery mode, a second self entry). Expected outcomes are not written here:
// cases.ts computes them with our implementation of the tool.
import { uuid5 } from "../../../packs/toolsandbox/default-world.js";
import type { Row } from "../../../world/types.js";
import type { CaseSpec, ToolCaseSpecs } from "./cases.js";

type Tables = Record<string, Row[]>;

const settings =
  (patch: Readonly<Record<string, boolean>>) =>
  (t: Tables): void => {
    const [row] = t.SETTING ?? [];
    if (row) t.SETTING = [{ ...row, ...patch }];
  };

/** The setter of a service that low battery mode keeps off (wifi, cellular). */
function serviceSetterCases(column: string): CaseSpec[] {
  return [
    { label: "turn it off", kind: "valid", arguments: { on: false } },
    { label: "turn it on while it is off", kind: "valid", arguments: { on: true }, world: settings({ [column]: false }) },
    { label: "turn it on while it is already on", kind: "state", arguments: { on: true } },
    {
      label: "turn it on in low battery mode",
      kind: "state",
      arguments: { on: true },
      world: settings({ [column]: false, low_battery_mode: true }),
    },
    { label: "turn it off in low battery mode", kind: "state", arguments: { on: false }, world: settings({ low_battery_mode: true }) },
    { label: "a string for on", kind: "edge", arguments: { on: "yes" } },
  ];
}

function statusGetterCases(column: string): CaseSpec[] {
  return [
    { label: "it is on", kind: "valid", arguments: {} },
    { label: "it is off", kind: "state", arguments: {}, world: settings({ [column]: false }) },
  ];
}

const FREDRIK = uuid5("Fredrik Thordendal");
const HOMER = uuid5("Homer S");

const removeSelf = (t: Tables): void => {
  t.CONTACT = (t.CONTACT ?? []).filter((r) => r.is_self !== true);
};

export const TOOLSANDBOX_CASES: readonly ToolCaseSpecs[] = [
  { tool: "get_wifi_status", tables: ["SETTING"], cases: statusGetterCases("wifi") },
  { tool: "get_cellular_service_status", tables: ["SETTING"], cases: statusGetterCases("cellular") },
  { tool: "set_wifi_status", tables: ["SETTING"], cases: serviceSetterCases("wifi") },
  { tool: "set_cellular_service_status", tables: ["SETTING"], cases: serviceSetterCases("cellular") },
  {
    tool: "set_low_battery_mode_status",
    tables: ["SETTING"],
    cases: [
      { label: "turn it on: the services go off", kind: "valid", arguments: { on: true } },
      { label: "turn it on with wifi already off", kind: "state", arguments: { on: true }, world: settings({ wifi: false }) },
      {
        label: "turn it off while it is on",
        kind: "valid",
        arguments: { on: false },
        world: settings({ low_battery_mode: true, wifi: false, cellular: false, location_service: false }),
      },
      { label: "turn it off while it is already off", kind: "state", arguments: { on: false } },
      { label: "a number for on", kind: "edge", arguments: { on: 1 } },
    ],
  },
  {
    tool: "add_contact",
    tables: ["CONTACT"],
    cases: [
      { label: "name and phone number", kind: "valid", arguments: { name: "Ada Lovelace", phone_number: "+14155550123" } },
      {
        label: "with a relationship",
        kind: "valid",
        arguments: { name: "Grace Hopper", phone_number: "+14155550124", relationship: "friend" },
      },
      {
        label: "the user's own entry when there is none",
        kind: "state",
        arguments: { name: "Me", phone_number: "+14155550125", is_self: true },
        world: removeSelf,
      },
      { label: "a second self entry", kind: "state", arguments: { name: "Me", phone_number: "+14155550125", is_self: true } },
      { label: "a name that is a number", kind: "edge", arguments: { name: 42, phone_number: "+14155550126" } },
      { label: "an empty name", kind: "edge", arguments: { name: "", phone_number: "+14155550127" } },
    ],
  },
  {
    tool: "modify_contact",
    tables: ["CONTACT"],
    cases: [
      { label: "a new phone number", kind: "valid", arguments: { person_id: FREDRIK, phone_number: "+14155550199" } },
      {
        label: "a new name and relationship",
        kind: "valid",
        arguments: { person_id: HOMER, name: "Homer Simpson", relationship: "coworker" },
      },
      { label: "nothing to change", kind: "edge", arguments: { person_id: FREDRIK } },
      { label: "an unknown person_id", kind: "edge", arguments: { person_id: "no-such-id", name: "X" } },
    ],
  },
  {
    tool: "remove_contact",
    tables: ["CONTACT"],
    cases: [
      { label: "an existing contact", kind: "valid", arguments: { person_id: HOMER } },
      { label: "an unknown person_id", kind: "edge", arguments: { person_id: "no-such-id" } },
      { label: "a person_id that is a number", kind: "edge", arguments: { person_id: 7 } },
    ],
  },
  {
    tool: "search_contacts",
    tables: ["CONTACT"],
    cases: [
      { label: "by exact name", kind: "valid", arguments: { name: "Homer S" } },
      { label: "by phone number", kind: "valid", arguments: { phone_number: "+1234560987" } },
      { label: "the user's own entry", kind: "valid", arguments: { is_self: true } },
      { label: "by person_id and relationship", kind: "valid", arguments: { person_id: FREDRIK, relationship: "friend" } },
      { label: "nobody matches", kind: "edge", arguments: { phone_number: "+19999999999" } },
      { label: "in an empty address book", kind: "state", arguments: { is_self: false }, world: (t) => void (t.CONTACT = []) },
    ],
  },
  {
    tool: "send_message_with_phone_number",
    tables: ["SETTING", "CONTACT", "MESSAGING"],
    cases: [
      { label: "to a contact", kind: "valid", arguments: { phone_number: "+12453344098", content: "On my way" } },
      { label: "to a number not in contacts", kind: "valid", arguments: { phone_number: "+14155550100", content: "Hi" } },
      {
        label: "with cellular service off",
        kind: "state",
        arguments: { phone_number: "+12453344098", content: "Hi" },
        world: settings({ cellular: false }),
      },
      { label: "without a self entry", kind: "state", arguments: { phone_number: "+12453344098", content: "Hi" }, world: removeSelf },
      { label: "content that is not a string", kind: "edge", arguments: { phone_number: "+12453344098", content: 5 } },
    ],
  },
  {
    tool: "remove_reminder",
    tables: ["REMINDER"],
    cases: [
      { label: "an existing reminder", kind: "valid", arguments: { reminder_id: uuid5("reminder_1") } },
      { label: "an unknown reminder_id", kind: "edge", arguments: { reminder_id: "no-such-id" } },
      {
        label: "with no reminders at all",
        kind: "state",
        arguments: { reminder_id: uuid5("reminder_0") },
        world: (t) => void (t.REMINDER = []),
      },
    ],
  },
  {
    tool: "get_current_timestamp",
    tables: [],
    cases: [{ label: "now", kind: "valid", arguments: {} }],
  },
  {
    tool: "seconds_to_hours_minutes_seconds",
    tables: [],
    cases: [
      { label: "an hour, a minute and a second", kind: "valid", arguments: { seconds: 3661 } },
      { label: "zero", kind: "edge", arguments: { seconds: 0 } },
      { label: "the last second of a day", kind: "edge", arguments: { seconds: 86399 } },
      { label: "a string", kind: "edge", arguments: { seconds: "60" } },
    ],
  },
  {
    tool: "timestamp_diff",
    tables: [],
    cases: [
      { label: "a day and an hour later", kind: "valid", arguments: { timestamp_0: 1_717_200_000, timestamp_1: 1_717_290_000 } },
      { label: "earlier than the first", kind: "edge", arguments: { timestamp_0: 1_717_290_000, timestamp_1: 1_717_200_000 } },
      { label: "the same time", kind: "edge", arguments: { timestamp_0: 1_717_200_000, timestamp_1: 1_717_200_000 } },
      { label: "a string", kind: "edge", arguments: { timestamp_0: "yesterday", timestamp_1: 1_717_200_000 } },
    ],
  },
];
