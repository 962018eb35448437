// The agent's persona in words: the paragraph a model agent is given after its system prompt, so
// it can play the character (DialogTool's role play), and the description the role-play judge
// checks the replies against. Written for this project; the same persona always gives the same text.
import type { Persona, Scenario } from "../model.js";

/** One line per given field, in a fixed order: what the judge is shown as the persona. */
export function describePersona(persona: Persona): string {
  const lines = [`Name: ${persona.name}`];
  if (persona.gender !== undefined) lines.push(`Gender: ${persona.gender}`);
  if (persona.mbti !== undefined) lines.push(`MBTI type: ${persona.mbti}`);
  if (persona.language_features !== undefined) lines.push(`Language features: ${persona.language_features}`);
  if (persona.emotional_traits !== undefined) lines.push(`Emotional traits: ${persona.emotional_traits}`);
  return lines.join("\n");
}

/** The paragraph added to the agent's system prompt. */
function personaParagraph(persona: Persona): string {
  return [
    `While you help, you play a character: you are ${persona.name}. Stay in this character in every reply you write to the user;`,
    "let it show in how you speak, never in what you do with the tools, and never say that you are playing a part.",
    describePersona(persona),
  ].join("\n");
}

/**
 * The agent's system message: the scenario's system prompt, followed by the persona paragraph
 * after a blank line when the scenario gives a persona. Without one it is the system prompt
 * unchanged, so the trajectories of scenarios without a persona keep their bytes. Scripted agents
 * see it too and ignore it, as they ignore the system prompt.
 */
export function agentSystemMessage(agent: Scenario["agent"]): string {
  return agent.persona === undefined ? agent.system_prompt : `${agent.system_prompt}\n\n${personaParagraph(agent.persona)}`;
}
