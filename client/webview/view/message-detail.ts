// The selected message in full: its route and who could see it, the tool call with its arguments,
// the content, the error, the tool trace; the model call that produced it (telemetry); then what the evaluation pinned here and the world
// changes recorded at this message, with the whole world one click away.
import { ROLE_NAMES, type Message } from "../../../engine/episode/types.js";
import type { PanelTrajectory } from "../model/panel-trajectory.js";
import type { PanelActions } from "./actions.js";
import { button, el, replaceChildren } from "./dom.js";
import { messageKind, plural, roleLabel } from "./format.js";
import { nodeCard, type NodeContext } from "./node-results.js";
import { appendRichText, jsonBlock } from "./text.js";
import { callSection } from "./model-calls.js";
import { dialogToolSection } from "./dialogtool-turn.js";
import { changeList, worldTables, type WorldContext } from "./world-diff.js";

export class MessageDetailView {
  readonly element = el("div", { class: "detail", attrs: { "data-testid": "detail", tabindex: "-1" } });
  /** The full-world view stays open from one message to the next once the user opened it. */
  private worldOpen = false;
  /** The message shown last: redrawing the same one (new lines, a new search) keeps the scroll position. */
  private shown: number | null = null;

  constructor(
    private readonly actions: PanelActions,
    private readonly canRevealInEditor: boolean,
    private readonly commands: boolean,
  ) {}

  render(t: PanelTrajectory | null, index: number | null, query: string): void {
    const scroll = index === this.shown ? this.element.scrollTop : 0;
    this.shown = index;
    this.draw(t, index, query);
    this.element.scrollTop = scroll;
  }

  private draw(t: PanelTrajectory | null, index: number | null, query: string): void {
    const m = index === null || t === null ? undefined : t.messages[index];
    if (!t) {
      replaceChildren(this.element, this.emptyPanel());
      return;
    }
    if (index === null || !m) {
      replaceChildren(
        this.element,
        el("p", { class: "placeholder", text: t.messages.length > 0 ? "Select a message." : "Waiting for the first message…" }),
      );
      return;
    }
    const definitions = new Map([...t.header.scenario.milestones, ...t.header.scenario.minefields].map((n) => [n.id, n]));
    const nodeContext: NodeContext = { definitions, canRevealInEditor: this.canRevealInEditor, query, actions: this.actions };
    const worldContext: WorldContext = { timezone: t.header.scenario.clock.timezone, query, schemas: t.schemas };
    const marks = t.marksAt(index);
    const changes = t.changesAt(index);

    const world = el("details", { class: "world-at" }, el("summary", { text: `World at message ${index}` }));
    world.open = this.worldOpen;
    const fillWorld = (): void => {
      if (world.open && world.childElementCount === 1) world.append(worldTables(t.worldAt(index), changes, worldContext));
    };
    world.addEventListener("toggle", () => {
      this.worldOpen = world.open;
      fillWorld();
    });
    fillWorld();

    replaceChildren(
      this.element,
      this.message(m, query),
      callSection(t.callsAt(index), query),
      dialogToolSection(t.dialogToolAt(index)),
      marks.length > 0
        ? el(
            "section",
            { class: "detail-section nodes", attrs: { "data-testid": "nodes-here" } },
            el("h3", { text: "Evaluation at this message" }),
            ...marks.map((mark) => nodeCard(mark, nodeContext)),
          )
        : null,
      el(
        "section",
        { class: "detail-section world", attrs: { "data-testid": "world" } },
        el("h3", { text: changes.length > 0 ? `World changes recorded here (${plural(changes.length, "row")})` : "World" }),
        changes.length > 0
          ? changeList(changes, worldContext)
          : el("p", { class: "muted", text: "No world changes recorded at this message." }),
        world,
      ),
    );
  }

  private message(m: Message, query: string): HTMLElement {
    const kind = messageKind(m);
    const tags: string[] = [];
    if (m.scripted) tags.push("scripted");
    if (kind === "result" && m.openai_function_name !== null) tags.push(`result of ${m.openai_function_name}`);
    if (kind === "error") tags.push("tool error");
    if (!m.conversation_active) tags.push("conversation over");
    const hiddenFrom = ROLE_NAMES.filter((r) => !m.visible_to.includes(r));

    const body: (HTMLElement | null)[] = [];
    if (m.tool_call) {
      const call = m.tool_call;
      body.push(
        el(
          "div",
          { class: "tool-call" },
          el(
            "div",
            { class: "call-head" },
            el("span", { class: "label", text: "calls" }),
            el("code", { class: "tool-name", text: call.name }),
            el("span", { class: "call-id", text: `id ${call.id}` }),
          ),
          call.arguments !== undefined
            ? jsonBlock(call.arguments, query)
            : el(
                "div",
                {},
                el("p", { class: "warning", text: "The arguments are not a JSON object; the raw text was:" }),
                this.pre(call.raw_arguments ?? "", query),
              ),
        ),
      );
    }
    if (!m.tool_call && m.content !== m.tool_call_exception)
      body.push(this.pre(m.content === "" ? "(empty)" : m.content, query, kind === "result" ? "code result" : "content"));
    if (m.tool_call_exception !== null) {
      body.push(
        el(
          "div",
          { class: "exception", attrs: { role: "note" } },
          el("span", { class: "label", text: "error" }),
          this.pre(m.tool_call_exception, query, "code"),
        ),
      );
    }
    if (m.tool_trace !== null && m.tool_trace.length > 0) {
      body.push(
        el(
          "details",
          { class: "trace" },
          el("summary", { text: `Tool trace (${plural(m.tool_trace.length, "call")})` }),
          ...m.tool_trace.map((trace) =>
            el(
              "div",
              { class: "trace-entry" },
              el("code", { class: "tool-name", text: trace.tool_name }),
              jsonBlock({ arguments: trace.arguments, result: trace.result }, query),
            ),
          ),
        ),
      );
    }

    return el(
      "article",
      {
        class: `message role-${m.sender} kind-${kind}`,
        attrs: { "data-testid": "message", "data-index": String(m.sandbox_message_index) },
      },
      el(
        "header",
        { class: "message-head" },
        el("h2", { text: `Message ${m.sandbox_message_index}` }),
        el(
          "span",
          { class: "route" },
          el("span", { class: `who role-${m.sender}`, text: roleLabel(m.sender) }),
          " → ",
          el("span", { class: `who role-${m.recipient}`, text: roleLabel(m.recipient) }),
        ),
        ...tags.map((tag) => el("span", { class: `tag ${tag === "tool error" ? "error" : ""}`, text: tag })),
      ),
      el(
        "div",
        { class: "visibility", attrs: { "data-testid": "visibility" } },
        el("span", { class: "label", text: "visible to" }),
        ...(m.visible_to.length === 0
          ? [el("span", { class: "muted", text: "nobody" })]
          : m.visible_to.map((r) => el("span", { class: `who role-${r}`, text: roleLabel(r) }))),
        hiddenFrom.length > 0 ? el("span", { class: "hidden-from", text: `hidden from ${hiddenFrom.map(roleLabel).join(", ")}` }) : null,
      ),
      ...body,
    );
  }

  /** Nothing is open: one sentence and what to do about it. */
  private emptyPanel(): HTMLElement {
    const box = el("div", { class: "empty-panel", attrs: { "data-testid": "empty-panel" } });
    if (!this.commands) {
      box.append(el("p", { class: "placeholder", text: "This page holds no trajectory." }));
      return box;
    }
    box.append(
      el("p", { text: "No run is open. Run the scenario in the active editor, or open a saved trajectory." }),
      el(
        "div",
        { class: "empty-actions" },
        button("Run Scenario", { class: "tool primary", attrs: { "data-action": "empty-run" } }, () => this.actions.command("run")),
        button("Open Trajectory…", { class: "tool", attrs: { "data-action": "empty-open" } }, () => this.actions.command("open")),
      ),
    );
    return box;
  }

  private pre(text: string, query: string, className = "content"): HTMLPreElement {
    const pre = el("pre", { class: className });
    appendRichText(pre, text, query, (url) => this.actions.openLink(url));
    return pre;
  }
}
