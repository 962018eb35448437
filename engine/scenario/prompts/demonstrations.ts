// Example conversations shown only to the user simulator (reference section 1.6). They teach the
// simulated user to answer briefly, to say only what it knows and to let the agent do the work.
// The names are the upstream ones, so scenarios can refer to them; the dialogues are our own.
// People, numbers and message texts here are invented and deliberately absent from the default
// world, so a demonstration never hands the simulator an answer to a real scenario.

import type { Demonstration, DemonstrationMessage } from "../model.js";

const user = (content: string): DemonstrationMessage => ({ sender: "user", recipient: "agent", content });
const agent = (content: string): DemonstrationMessage => ({ sender: "agent", recipient: "user", content });
/** Every demonstration ends as upstream's do: the simulated user calls end_conversation. */
const END: DemonstrationMessage = { sender: "user", recipient: "execution_environment", content: "end_conversation()" };

const SEND_MESSAGE: Demonstration = {
  name: "send_message_with_contact_content_cellular_off_multiple_user_turn",
  goal: "Send a text to Maya saying: Are we still on for Friday?",
  messages: [
    user("I need to text someone."),
    agent("Happy to help with that. Who should get the message, and what should it say? If you have their phone number, that helps too."),
    user("I don't know the number."),
    agent("No problem, I can look them up in your contacts. What's their name?"),
    user("Maya."),
    agent("Got it. What would you like the message to say?"),
    user("Are we still on for Friday?"),
    agent("Cellular service is off on your phone, so I can't send anything yet. Is it okay if I turn it on?"),
    user("Sure."),
    agent("Cellular is on now. I'm about to send 'Are we still on for Friday?' to Maya. Should I go ahead?"),
    user("Yep."),
    agent("Done, your message to Maya has been sent."),
    END,
  ],
};

const SEARCH_MESSAGE: Demonstration = {
  name: "search_message_with_recency_latest_multiple_user_turn",
  goal: "Find out what your (User A's) oldest message says.",
  messages: [
    user("Can you dig up a message for me?"),
    agent(
      "Sure. What do you remember about it? For example who sent it, their phone number, a few words from it, or roughly when it came in.",
    ),
    user("Just the oldest one I have."),
    agent("Your oldest message says: 'Don't forget band practice on Sunday.'"),
    END,
  ],
};

const MODIFY_CONTACT: Demonstration = {
  name: "modify_contact_with_message_recency_multiple_user_turn",
  goal: "Change the phone number of the last person you (User A) texted to +14155550187.",
  messages: [
    user("Someone's phone number needs fixing."),
    agent("I can do that. Which contact is it? A name or a contact id would help."),
    user("Not sure, it's whoever I texted last."),
    agent("The last person you sent a message to is Priya Raman. What should her new number be?"),
    user("+14155550187"),
    agent("Priya Raman's phone number is now +14155550187."),
    END,
  ],
};

const REMOVE_CONTACT: Demonstration = {
  name: "remove_contact_by_phone_multiple_user_turn",
  goal: "Delete the contact whose phone number is +14155550123.",
  messages: [
    user("I want to get rid of a contact."),
    agent("Okay. Can you tell me the contact's name or id?"),
    user("I don't know either of those."),
    agent("That's fine. Do you have their phone number?"),
    user("Yeah, it's +14155550123."),
    agent("The contact with phone number +14155550123 has been removed."),
    END,
  ],
};

const WIND_SPEED: Demonstration = {
  name: "find_temperature_f_with_location_and_time_diff_multiple_user_turn",
  goal: "Find out how windy it is in Cupertino today and next Monday, with the speed in mph.",
  messages: [
    user("How windy is it in Cupertino today?"),
    agent("The wind in Cupertino is blowing at 9 km/h right now."),
    user("And next Monday?"),
    agent("Next Monday the wind in Cupertino should be around 12 km/h."),
    user("In mph please."),
    agent("That's about 7.5 mph for next Monday."),
    END,
  ],
};

const LOW_BATTERY: Demonstration = {
  name: "find_temperature_low_battery_mode",
  goal: "Find out the current temperature.",
  messages: [
    user("What's the temperature outside right now?"),
    agent("Sorry, I couldn't look that up because some of your phone's services aren't working."),
    user("Try again, you've got tools for that."),
    agent("The weather search needs wifi, and wifi is off. May I turn it on?"),
    user("Yes."),
    agent("Wifi can't be switched on while low battery mode is active. Should I turn low battery mode off?"),
    user("Go ahead."),
    agent("Thanks. The search also needs location service, which is off too. Can I turn that on?"),
    user("Sure."),
    agent("All set. It's 18 degrees Celsius where you are right now."),
    END,
  ],
};

/** The six built-in demonstrations, by their upstream names. */
export const BUILTIN_DEMONSTRATIONS: Readonly<Record<string, Demonstration>> = Object.freeze(
  Object.fromEntries([SEND_MESSAGE, SEARCH_MESSAGE, MODIFY_CONTACT, REMOVE_CONTACT, WIND_SPEED, LOW_BATTERY].map((d) => [d.name, d])),
);

/** Used when a scenario names no demonstrations: upstream shows this one in every scenario. */
export const DEFAULT_DEMONSTRATIONS: readonly string[] = ["send_message_with_contact_content_cellular_off_multiple_user_turn"];
