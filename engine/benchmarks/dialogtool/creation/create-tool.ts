// Tool creation for one tool: its cases (our implementation as the oracle), the model's request
// through ChatModel (timeouts, retries, telemetry), the code of its reply run in the sandbox on
// every case, and the verdict of each case. Everything the run did goes into one result object.
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ModelCall } from "../../../episode/types.js";
import type { JsonValue } from "../../../base/json.js";
import type { ChatModel } from "../../../roles/openai/chat-model.js";
import { RoleError } from "../../../episode/role.js";
import type { ToolDefinition } from "../../../tools/types.js";
import { generateCases, type CaseWorld, type Expected, type ToolCaseSpecs } from "./cases.js";
import { judgeCase, type CaseVerdict } from "./case-verdicts.js";
import { codeOfReply, creationMessages } from "./prompt.js";
import { runInSandbox, type SandboxLimits, type SandboxMemory, type SandboxPaths } from "./sandbox.js";

export const TOOL_CREATION_FORMAT = "toolsandbox-tool-creation/1";

export interface CaseResult extends CaseVerdict {
  readonly arguments: { readonly [name: string]: JsonValue };
  readonly expected: Expected;
}

export interface ToolCreationResult {
  readonly format: typeof TOOL_CREATION_FORMAT;
  readonly tool: string;
  readonly app: string;
  readonly passed: number;
  readonly total: number;
  /** Why no case could pass (the model failed, no code, the code defined nothing, the sandbox stopped), or null. */
  readonly failure: string | null;
  readonly prompt: readonly ChatCompletionMessageParam[];
  readonly reply: string | null;
  readonly code: string | null;
  readonly cases: readonly CaseResult[];
  readonly model_calls: readonly ModelCall[];
  /** How the sandbox ended (null when the code never ran): why it was stopped, and its memory. */
  readonly sandbox: SandboxReport | null;
}

export interface SandboxReport {
  /** Why the host stopped the sandbox (a time or memory limit, a protocol violation, a crash), or null. */
  readonly stopped: string | null;
  /** Spawn to ready (Pyodide loaded), and ready to the end (the code's top level and the calls), in ms. */
  readonly startup_ms: number | null;
  readonly run_ms: number | null;
  readonly memory: { readonly limit_mb: number; readonly enforcement: SandboxMemory["enforcement"]; readonly peak_mb: number };
}

interface CreateToolInput {
  readonly tool: ToolDefinition;
  readonly app: string;
  readonly specs: ToolCaseSpecs;
  readonly world: CaseWorld;
  /** The pack's rules and the tool's notes for the prompt (packs.ts). */
  readonly rules?: string;
  readonly notes?: readonly string[];
  readonly model: ChatModel;
  /** Names the model in error messages ("agent openai:gpt-4o"). */
  readonly label: string;
  readonly sandbox: SandboxPaths;
  readonly limits?: SandboxLimits;
}

export async function createTool(input: CreateToolInput): Promise<ToolCreationResult> {
  const { tool, specs } = input;
  const cases = generateCases(tool, specs, input.world);
  const example = cases.find((c) => c.kind === "valid" && c.expected.kind === "returned");
  if (!example) throw new Error(`the cases of ${tool.name} have no valid call to show as the example`);
  const prompt = creationMessages({
    tool,
    tables: specs.tables,
    schemas: input.world.schemas,
    example,
    ...(input.rules === undefined ? {} : { rules: input.rules }),
    ...(input.notes === undefined ? {} : { notes: input.notes }),
  });
  const modelCalls: ModelCall[] = [];
  const result = (
    failure: string | null,
    reply: string | null,
    code: string | null,
    verdicts: readonly CaseVerdict[],
    sandbox: SandboxReport | null = null,
  ): ToolCreationResult => ({
    format: TOOL_CREATION_FORMAT,
    tool: tool.name,
    app: input.app,
    passed: verdicts.filter((v) => v.pass).length,
    total: cases.length,
    failure,
    prompt,
    reply,
    code,
    cases: cases.map((c, i) => ({ ...(verdicts[i] as CaseVerdict), arguments: c.arguments, expected: c.expected })),
    model_calls: modelCalls,
    sandbox,
  });
  const failAll = (reason: string): CaseVerdict[] => cases.map((c) => ({ id: c.id, label: c.label, kind: c.kind, pass: false, reason }));

  let reply: string;
  try {
    const message = await input.model.complete(input.label, [...prompt], [], undefined, (call) => modelCalls.push(call));
    reply = message.content ?? "";
  } catch (error) {
    if (!(error instanceof RoleError)) throw error;
    return result(error.message, null, null, failAll(`no code: ${error.message}`));
  }
  const code = codeOfReply(reply);
  if (code === null) return result("the reply has no code block", reply, null, failAll("no code: the reply has no code block"));
  const run = await runInSandbox(
    code,
    tool.name,
    cases.map((c) => ({ id: c.id, arguments: c.arguments, world: c.world })),
    input.sandbox,
    input.limits,
  );
  const verdicts = cases.map((c) => judgeCase(c, run.calls.get(c.id)));
  const report: SandboxReport = {
    stopped: run.stopped,
    startup_ms: run.startupMs,
    run_ms: run.runMs,
    memory: { limit_mb: run.memory.limitMb, enforcement: run.memory.enforcement, peak_mb: run.memory.peakMb },
  };
  return result(run.loadFailure ?? run.stopped, reply, code, verdicts, report);
}
