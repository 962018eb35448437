// A prompt set: the texts a benchmark shows the models, kept apart from the scenarios so that a
// user's own copy of a benchmark's wording can be used at run time without ever being committed
// here. `toolsandbox import toolsandbox` writes one from the user's checkout (upstream's tool
// docstrings, its user-simulator instruction, its named demonstrations and its agent system
// prompt); a scenario refers to it with `prompts:`, and `run --prompts FILE` applies one to any
// scenario. Without one, our own wording is used.
import { isJsonObject, type JsonValue } from "../../base/json.js";
import type { RoleName } from "../../base/message-parts.js";
import type { Demonstration, DemonstrationMessage } from "../model.js";

export const PROMPT_SET_FORMAT = "toolsandbox-prompt-set/1";
/** The file name the importer writes beside the scenarios. */
export const PROMPT_SET_FILE = "toolsandbox-prompts.json";

export interface PromptSet {
  /** Where it came from (a checkout), for the reader. */
  readonly source: string;
  /** The world pack whose tools `tools` describes. */
  readonly pack: string;
  readonly agent_system_prompt: string | null;
  /** The user simulator's instruction, which the goal follows. */
  readonly user_preamble: string | null;
  /** Named demonstrations; a scenario naming one gets this text before the built-in one. */
  readonly demonstrations: Readonly<Record<string, Demonstration>>;
  /** The demonstrations a scenario that names none gets. */
  readonly default_demonstrations: readonly string[] | null;
  /** Tool name -> the docstring its schema is derived from (description and argument texts). */
  readonly tools: Readonly<Record<string, string>>;
}

export class PromptSetError extends Error {}

const ROLES: readonly RoleName[] = ["system", "user", "agent", "execution_environment"];

function text(value: JsonValue | undefined, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new PromptSetError(`${where} must be text`);
  return value;
}

function demonstration(name: string, value: JsonValue): Demonstration {
  const where = `demonstrations.${name}`;
  if (!isJsonObject(value)) throw new PromptSetError(`${where} must be an object`);
  const goal = text(value.goal, `${where}.goal`) ?? "";
  if (!Array.isArray(value.messages)) throw new PromptSetError(`${where}.messages must be a list`);
  const messages = value.messages.map((m, i): DemonstrationMessage => {
    const at = `${where}.messages[${i}]`;
    if (!isJsonObject(m)) throw new PromptSetError(`${at} must be an object`);
    const sender = ROLES.find((r) => r === m.sender);
    const recipient = ROLES.find((r) => r === m.recipient);
    if (!sender || !recipient) throw new PromptSetError(`${at} needs a sender and a recipient among ${ROLES.join(", ")}`);
    return { sender, recipient, content: text(m.content, `${at}.content`) ?? "" };
  });
  return { name, goal, messages };
}

/** Parses and checks a prompt set file's text; throws PromptSetError naming what is wrong. */
export function parsePromptSet(source: string): PromptSet {
  let value: unknown;
  try {
    value = JSON.parse(source) as unknown;
  } catch (e) {
    throw new PromptSetError(`not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isJsonObject(value as JsonValue)) throw new PromptSetError("must be a JSON object");
  const set = value as Record<string, JsonValue>;
  if (set.format !== PROMPT_SET_FORMAT) throw new PromptSetError(`"format" must be "${PROMPT_SET_FORMAT}"`);
  const tools = set.tools ?? {};
  if (!isJsonObject(tools)) throw new PromptSetError("tools must map tool names to docstrings");
  const demos = set.demonstrations ?? {};
  if (!isJsonObject(demos)) throw new PromptSetError("demonstrations must map names to demonstrations");
  const defaults = set.default_demonstrations;
  if (defaults !== undefined && defaults !== null && !(Array.isArray(defaults) && defaults.every((d) => typeof d === "string"))) {
    throw new PromptSetError("default_demonstrations must be a list of names");
  }
  return {
    source: text(set.source, "source") ?? "",
    pack: text(set.pack, "pack") ?? "toolsandbox",
    agent_system_prompt: text(set.agent_system_prompt, "agent_system_prompt"),
    user_preamble: text(set.user_preamble, "user_preamble"),
    demonstrations: Object.fromEntries(Object.entries(demos).map(([name, d]) => [name, demonstration(name, d)])),
    default_demonstrations: Array.isArray(defaults) ? (defaults as string[]) : null,
    tools: Object.fromEntries(Object.entries(tools).map(([name, doc]) => [name, text(doc, `tools.${name}`) ?? ""])),
  };
}
