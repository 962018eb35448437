// The `user:` section: goal, knowledge boundary, demonstrations and the scripted opening.
import { BUILTIN_DEMONSTRATIONS, DEFAULT_DEMONSTRATIONS } from "./prompts/demonstrations.js";
import type { RoleName } from "../base/message-parts.js";
import type { CheckContext } from "./check-context.js";
import type { Demonstration, DemonstrationMessage, KnowledgeFact, Scenario } from "./model.js";
import { list, obj, str } from "./raw.js";
import { closestMatch, didYouMean } from "./suggest.js";

export function resolveUser(ctx: CheckContext, raw: unknown): Scenario["user"] {
  const user = obj(raw);
  const opening = str(user?.opening) ?? "";
  const knowledge = list(user?.knowledge).flatMap((item, i): KnowledgeFact[] => {
    const fact = obj(item);
    const text = str(fact?.fact);
    if (text === null) return [];
    const value = str(fact?.value);
    const reveal = fact?.reveal === "never" ? "never" : "when_asked";
    if (reveal === "never" && value !== null && opening.toLowerCase().includes(value.toLowerCase())) {
      ctx.reporter.report(
        ["user", "opening"],
        "knowledge-leak",
        `The opening message reveals "${value}", which knowledge fact ${i + 1} says the user must never reveal.`,
        {
          severity: "warning",
        },
      );
    }
    return [{ fact: text, value, reveal }];
  });
  const named = (name: string): Demonstration | undefined => ctx.prompts?.demonstrations[name] ?? BUILTIN_DEMONSTRATIONS[name];
  const demonstrations = Array.isArray(user?.demonstrations)
    ? user.demonstrations.flatMap((item, i) => resolveDemonstration(ctx, item, i, named))
    : (ctx.prompts?.default_demonstrations ?? DEFAULT_DEMONSTRATIONS).flatMap((name) => named(name) ?? []);
  const preamble = str(user?.preamble) ?? ctx.prompts?.user_preamble ?? null;
  // Left out when not written, so trajectories of scenarios without one stay byte-identical.
  return { ...(preamble === null ? {} : { preamble }), goal: str(user?.goal) ?? "", knowledge, demonstrations, opening };
}

function resolveDemonstration(
  ctx: CheckContext,
  item: unknown,
  index: number,
  named: (name: string) => Demonstration | undefined,
): Demonstration[] {
  if (typeof item === "string") {
    const known = named(item);
    if (known) return [known];
    const suggestion = closestMatch(item, [...Object.keys(ctx.prompts?.demonstrations ?? {}), ...Object.keys(BUILTIN_DEMONSTRATIONS)]);
    ctx.reporter.report(
      ["user", "demonstrations", index],
      "unknown-demonstration",
      `No built-in demonstration is called "${item}".${didYouMean(suggestion)}`,
      {
        data: suggestion === null ? undefined : { suggestion },
      },
    );
    return [];
  }
  const demo = obj(item);
  const name = str(demo?.name);
  const goal = str(demo?.goal);
  if (name === null || goal === null) return [];
  const messages = list(demo?.messages).flatMap((m): DemonstrationMessage[] => {
    const message = obj(m);
    const sender = role(message?.sender);
    const recipient = role(message?.recipient);
    const content = str(message?.content);
    return sender && recipient && content !== null ? [{ sender, recipient, content }] : [];
  });
  return [{ name, goal, messages }];
}

function role(v: unknown): RoleName | null {
  return v === "system" || v === "user" || v === "agent" || v === "execution_environment" ? v : null;
}
