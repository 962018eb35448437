// The default world of ToolSandbox (reference section 1.2), built relative to the scenario clock.
// Ids are uuid5 in the URL namespace of the same payloads upstream uses, so they match upstream.
import { uuid5 } from "../../world/ids.js";
import type { Row, Tables } from "../../world/types.js";

export { uuid5 };

const DAY = 86400;
const H = 3600;
const M = 60;

const DEFAULT_LOCATION = { latitude: 37.334606, longitude: -122.009102 } as const;

export function defaultWorld(now: number): Tables {
  const tomas = uuid5("Tomas Haake");
  const homer = uuid5("Homer S");
  const setting: Row[] = [
    {
      device_id: uuid5("my_phone"),
      cellular: true,
      wifi: true,
      location_service: true,
      low_battery_mode: false,
      latitude: DEFAULT_LOCATION.latitude,
      longitude: DEFAULT_LOCATION.longitude,
    },
  ];
  const contact: Row[] = [
    { person_id: tomas, name: "Tomas Haake", phone_number: "+11233344455", relationship: "self", is_self: true },
    {
      person_id: uuid5("Fredrik Thordendal"),
      name: "Fredrik Thordendal",
      phone_number: "+12453344098",
      relationship: "friend",
      is_self: false,
    },
    { person_id: uuid5("John Petrucci"), name: "John Petrucci", phone_number: "+1234560987", relationship: "friend", is_self: false },
    { person_id: homer, name: "Homer S", phone_number: "+10000000000", relationship: "boss", is_self: false },
  ];
  const message = (
    id: string,
    sender: string | null,
    senderPhone: string,
    recipient: string | null,
    recipientPhone: string,
    content: string,
    created: number,
  ): Row => ({
    message_id: uuid5(id),
    sender_person_id: sender,
    sender_phone_number: senderPhone,
    recipient_person_id: recipient,
    recipient_phone_number: recipientPhone,
    content,
    creation_timestamp: created,
  });
  const messaging: Row[] = [
    message("message_0", null, "+18307976530", tomas, "+11233344455", "Hey kid, you want some GPU?", now - (3 * DAY + 4 * H + 5 * M + 6)),
    message("message_1", tomas, "+11233344455", null, "+18307976530", "No leave me alone", now - (3 * DAY + 3 * H + 5 * M + 6)),
    message("message_4", homer, "+10000000000", tomas, "+11233344455", "How's it going", now - (1 * H + 3 * M + 3)),
    message("message_2", tomas, "+11233344455", homer, "+10000000000", "Things are proceeding as expected", now - (1 * H + 2 * M + 3)),
    // Upstream quirk kept on purpose: the same payload, hence the same id, is used twice.
    message("message_4", homer, "+10000000000", tomas, "+11233344455", "Good, keep me posted", now - (1 * M + 2)),
  ];
  const reminder: Row[] = [
    {
      reminder_id: uuid5("reminder_0"),
      content: "Look for Company SF tickets",
      creation_timestamp: now - 3 * DAY,
      reminder_timestamp: now - 1 * DAY,
      latitude: null,
      longitude: null,
    },
    {
      reminder_id: uuid5("reminder_1"),
      content: "Buy tickets for Merrily next week",
      creation_timestamp: now - 1 * DAY,
      reminder_timestamp: now - 1 * M,
      latitude: null,
      longitude: null,
    },
    {
      reminder_id: uuid5("reminder_2"),
      content: "Buy a nice rich navy bathing dress",
      creation_timestamp: now - 1 * H,
      reminder_timestamp: now + 1 * H,
      latitude: 37.3237926356735,
      longitude: -122.03961770355414,
    },
  ];
  return { SETTING: setting, CONTACT: contact, MESSAGING: messaging, REMINDER: reminder };
}
