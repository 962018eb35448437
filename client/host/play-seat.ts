// The agent's seat of a run a person plays in the panel ("Play Scenario as Agent…"). The person's
// role is the terminal's (engine/roles/human.ts): it reads lines, and this seat is its line source.
// A form's call arrives as a tool name and arguments, is checked against the tools the agent may
// call, and goes to the role as the call line that reads back to the same call; a message for the
// user goes as itself. The form is published at each turn with the world's values as they stand.
// No VS Code here: the node tests play whole episodes through it.
import type { JsonValue } from "../../engine/base/json.js";
import { callableTools } from "../../engine/episode/tool-calls.js";
import type { PlayFormMessage, PlayRequest, PlayTool } from "../../engine/panel/play-protocol.js";
import { playTools } from "../../engine/panel/play-form.js";
import { QUIT_COMMAND, type LineSource } from "../../engine/roles/human.js";
import type { Scenario } from "../../engine/scenario/model.js";
import { closestMatch, didYouMean } from "../../engine/scenario/suggest.js";
import { callLineText, splitCallLine } from "../../engine/tools/call-line.js";
import type { TrajectoryEvent } from "../../engine/trajectory/events.js";
import { applyChanges } from "../../engine/world/changes.js";
import type { Tables } from "../../engine/world/types.js";

export class PlaySeat {
  private world: Tables;
  private tools: readonly PlayTool[];
  private waiting: ((line: string | null) => void) | null = null;
  private problem: string | null = null;
  private ended = false;
  private readonly names: ReadonlyMap<string, readonly string[]>;

  constructor(
    private readonly scenario: Scenario,
    /** Told the form each time it changes (the feed passes it on to every view of the run). */
    private readonly publish: (form: PlayFormMessage) => void,
  ) {
    this.world = scenario.world.tables;
    this.tools = playTools(scenario, this.world);
    this.names = new Map([...callableTools(scenario, "agent")].map(([name, tool]) => [name, tool.parameters.map((p) => p.name)]));
  }

  get form(): PlayFormMessage {
    return { type: "play", tools: this.tools, yourTurn: this.waiting !== null, problem: this.problem, ended: this.ended };
  }

  /** The person's role reads its next line here: it waits for the form. */
  readonly read: LineSource = (_prompt, signal) => {
    if (this.ended || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
      signal?.addEventListener("abort", () => this.deliver(null), { once: true });
      this.tools = playTools(this.scenario, this.world);
      this.publish(this.form);
    });
  };

  /** The role refused a line (it reads the next one at once). */
  readonly refuse = (problem: string): void => {
    this.problem = problem;
    this.publish(this.form);
  };

  /** Each line of the run: the world's changes keep the offered values current. */
  onEvent(event: TrajectoryEvent): void {
    if (event.type !== "world") return;
    try {
      this.world = applyChanges(this.world, event.changes);
    } catch {
      // The form offers what it knew last; the run never depends on this copy.
    }
  }

  /**
   * A request of the form, already checked for its shape (client/webview/validate/play.ts). Returns
   * why it was refused (also shown in the form), or null once it went to the run.
   */
  receive(request: PlayRequest): string | null {
    const refused = this.lineOf(request);
    if ("problem" in refused) {
      this.problem = refused.problem;
      this.publish(this.form);
      return refused.problem;
    }
    this.problem = null;
    this.deliver(refused.line);
    return null;
  }

  /** The episode is over: a turn still waiting ends, and the form says so. */
  finish(): void {
    this.ended = true;
    this.deliver(null);
  }

  private lineOf(request: PlayRequest): { readonly line: string } | { readonly problem: string } {
    if (this.ended) return { problem: "the episode is over" };
    if (this.waiting === null) return { problem: "it is not your turn: the user and the tools are still answering" };
    switch (request.type) {
      case "play-quit":
        return { line: QUIT_COMMAND };
      case "play-say": {
        const text = request.text.trim();
        // The role reads a line like `name(...)` as a call: a message must not be taken for one.
        if (splitCallLine(text) !== null)
          return { problem: "that message reads as a tool call; call tools with their forms, or reword it" };
        if (text === QUIT_COMMAND) return { problem: "to end the episode, press Quit" };
        return { line: text };
      }
      case "play-call":
        return this.callLine(request.tool, request.arguments);
    }
  }

  private callLine(tool: string, args: Readonly<Record<string, JsonValue>>): { readonly line: string } | { readonly problem: string } {
    const parameters = this.names.get(tool);
    if (parameters === undefined) {
      return { problem: `${tool} is not a tool the agent may call here.${didYouMean(closestMatch(tool, this.names.keys()))}` };
    }
    const unknown = Object.keys(args).find((name) => !parameters.includes(name));
    if (unknown !== undefined) return { problem: `${tool} has no argument ${unknown}` };
    return { line: callLineText(tool, args) };
  }

  private deliver(line: string | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting === null) {
      if (this.ended) this.publish(this.form);
      return;
    }
    waiting(line);
    this.publish(this.form);
  }
}
