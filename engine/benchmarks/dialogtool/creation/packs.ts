// The packs tool creation knows: their case specs, the world the cases start from, and the app of
// each tool. ToolTalk's login session is a table of its world (SESSION), so it reaches the Python
// contract as part of `world`; its tools draw their ids from their own generators, which the
// cases show as `new_ids`; and what its executor does around a tool (the login check, the
// session's update) is part of what the model writes, told by `rules`.
import { appOf } from "../../../scenario/apps.js";
import { TOOLSANDBOX_PACK } from "../../../packs/toolsandbox/index.js";
import { TOOLTALK_PACK, firstNewIds, requiresAuth } from "../../../packs/tooltalk/index.js";
import type { ToolDefinition } from "../../../tools/types.js";
import type { CaseWorld, ToolCaseSpecs } from "./cases.js";
import { TOOLSANDBOX_CASES } from "./toolsandbox-cases.js";
import { TOOLTALK_CASES, tooltalkCaseWorld } from "./tooltalk-cases.js";

export interface CreationPack {
  readonly id: string;
  readonly world: CaseWorld;
  readonly specs: readonly ToolCaseSpecs[];
  readonly toolByName: (name: string) => ToolDefinition | undefined;
  readonly appOf: (tool: ToolDefinition) => string;
  /** What the model is told of the pack beyond the common contract (system message), and per tool (user message). */
  readonly rules?: string;
  readonly toolNotes?: (tool: ToolDefinition) => readonly string[];
}

const TOOLTALK_RULES = `The pack's rules (ToolTalk's):
- \`world["SESSION"]\` holds one row: who is logged in (\`username\` and \`session_token\`, both None when
  nobody is). A tool that needs a login raises \`ToolExecutor("User is not logged in")\` when nobody is
  (define the class), and otherwise acts for the account whose \`session_token\` is the session's (none
  holds it: \`APIException("Invalid session_token.")\`).
- UserLogin and RegisterUser raise \`ToolExecutor("Only one user can be logged in at a time. Current
  user is <username>.")\` when someone is logged in; once they succeed, the session is the new login.
  LogoutUser and DeleteAccount, once they succeed, leave nobody logged in.
- The tool's own refusals raise \`APIException\` (define the class) with the messages listed; where a
  message names another class (KeyError, ValueError), raise that one. Python's own errors (a
  ValueError from datetime.strptime, a TypeError for a missing argument) are raised as they come.
- A tool that makes an id, a token or a code takes it with \`world["new_ids"].pop(0)\` as its last
  step before it returns.
- Times are naive local times written as text; the clock's local time is UTC, so now is
  \`datetime.datetime.fromtimestamp(world["now"], datetime.timezone.utc).replace(tzinfo=None)\`.`;

export const CREATION_PACKS: ReadonlyMap<string, CreationPack> = new Map([
  [
    "toolsandbox",
    {
      id: "toolsandbox",
      world: TOOLSANDBOX_PACK,
      specs: TOOLSANDBOX_CASES,
      toolByName: (name: string) => TOOLSANDBOX_PACK.toolByName(name),
      appOf: (tool: ToolDefinition) => appOf(TOOLSANDBOX_PACK, tool.name) ?? "Other",
    },
  ],
  [
    "tooltalk",
    {
      id: "tooltalk",
      world: { ...TOOLTALK_PACK, defaultWorld: tooltalkCaseWorld, toolIds: firstNewIds },
      specs: TOOLTALK_CASES,
      toolByName: (name: string) => TOOLTALK_PACK.toolByName(name),
      appOf: (tool: ToolDefinition) => appOf(TOOLTALK_PACK, tool.name) ?? "Other",
      rules: TOOLTALK_RULES,
      toolNotes: (tool: ToolDefinition) => [`Needs a login: ${requiresAuth(tool.name) ? "yes" : "no"}`],
    },
  ],
]);
