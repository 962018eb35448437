// DialogTool's execution error analysis (its Table 8 and Figure 3): for each reference call, the
// agent's call of the same tool that gets most arguments right is compared argument by argument:
// left out (missing), added (extra), or given another value (mismatched). A mismatch is typed by
// the parameter the tool declares: a date or time (a timestamp, or a name or description about
// dates and times), a location, a number, or other. Tool names do not repeat across packs, so the
// tool's own pack declares the parameter.
import { isDeepStrictEqual } from "node:util";
import type { JsonValue } from "../../../base/json.js";
import { PACKS } from "../../../packs/registry.js";
import type { ToolDefinition, ToolParameter } from "../../../tools/types.js";
import type { ActionCall, ArgumentKind, MismatchCounts } from "./types.js";

export function toolDefinition(name: string): ToolDefinition | undefined {
  for (const pack of PACKS) {
    const tool = pack.toolByName(name);
    if (tool) return tool;
  }
  return undefined;
}

export function appOfTool(name: string): string | null {
  for (const pack of PACKS) {
    const app = pack.apps.find((a) => a.tools.includes(name));
    if (app) return app.name;
  }
  return null;
}

const DATE_TIME = /(date|time|timestamp|\bday|hour|minute|second|month|year|deadline|due|when)/i;
const LOCATION = /(location|city|country|address|place|\blat|\blon|latitude|longitude|region|zip|postal|destination|origin)/i;

function argumentKind(parameter: ToolParameter | undefined, name: string): ArgumentKind {
  if (parameter?.timestamp === true || DATE_TIME.test(name)) return "date_time";
  if (LOCATION.test(name)) return "location";
  if (parameter?.type === "integer" || parameter?.type === "number") return "number";
  // The name says nothing; the declared description may (ToolTalk's "start_time" is caught above,
  // its "address" as well; a description like "the day of the event" here).
  const description = parameter?.description ?? "";
  if (/\b(date|time|timestamp|YYYY|%Y)\b/i.test(description)) return "date_time";
  if (/\b(location|city|address)\b/i.test(description)) return "location";
  return "other";
}

export const NO_MISMATCHES: MismatchCounts = { date_time: 0, location: 0, number: 0, other: 0 };

interface ArgumentErrors {
  readonly missing: number;
  readonly extra: number;
  readonly mismatched: MismatchCounts;
}

function rightArguments(truth: Readonly<Record<string, JsonValue>>, predicted: ActionCall["arguments"]): number {
  if (predicted === null) return 0;
  return Object.entries(truth).filter(([name, value]) => Object.hasOwn(predicted, name) && isDeepStrictEqual(predicted[name], value))
    .length;
}

/** Each reference call with the agent's call of the same tool that gets most of its arguments right (each used once), or null. */
export function pairCalls(
  truth: readonly ActionCall[],
  predicted: readonly ActionCall[],
): { truth: ActionCall; agent: ActionCall | null; right: number }[] {
  const used = new Set<number>();
  return truth.map((call) => {
    const args = call.arguments ?? {};
    let best = -1;
    let bestRight = -1;
    predicted.forEach((p, i) => {
      if (used.has(i) || p.tool !== call.tool) return;
      const right = rightArguments(args, p.arguments);
      if (right > bestRight) {
        best = i;
        bestRight = right;
      }
    });
    if (best < 0) return { truth: call, agent: null, right: 0 };
    used.add(best);
    return { truth: call, agent: predicted[best] ?? null, right: bestRight };
  });
}

/** Missing, extra and mismatched arguments of the agent's calls paired with the reference's. A reference call the agent never made counts its arguments missing. */
export function argumentErrors(truth: readonly ActionCall[], predicted: readonly ActionCall[]): ArgumentErrors {
  let missing = 0;
  let extra = 0;
  const mismatched: Record<ArgumentKind, number> = { ...NO_MISMATCHES };
  for (const { truth: call, agent } of pairCalls(truth, predicted)) {
    const want = call.arguments ?? {};
    if (agent === null || agent.arguments === null) {
      missing += Object.keys(want).length;
      continue;
    }
    const got = agent.arguments;
    const tool = toolDefinition(call.tool);
    for (const [name, value] of Object.entries(want)) {
      if (!Object.hasOwn(got, name)) missing++;
      else if (!isDeepStrictEqual(got[name], value))
        mismatched[
          argumentKind(
            tool?.parameters.find((p) => p.name === name),
            name,
          )
        ]++;
    }
    extra += Object.keys(got).filter((name) => !Object.hasOwn(want, name)).length;
  }
  return { missing, extra, mismatched };
}
