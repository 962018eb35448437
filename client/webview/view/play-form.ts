// The form a person plays the agent with ("Play Scenario as Agent…"): one fold per tool the agent
// may call, a field per argument (typed by its JSON Schema, with the world's values for it in a
// datalist), a Call button, and a box to say something to the user, which ends the turn. The run
// itself (results, world diffs, milestones) shows in the panel as any live run does. Text only,
// through dom.ts; the values are read by model/play-arguments.ts and checked again by the host.
import type { PlayField, PlayFormMessage, PlayRequest, PlayTool } from "../../../engine/panel/play-protocol.js";
import { formArguments } from "../model/play-arguments.js";
import { button, el, replaceChildren } from "./dom.js";
import "./play-form.css";

interface ToolForm {
  readonly tool: PlayTool;
  readonly inputs: ReadonlyMap<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;
  readonly lists: ReadonlyMap<string, HTMLDataListElement>;
  readonly call: HTMLButtonElement;
}

export class PlayFormView {
  readonly element = el("section", { class: "play-pane", attrs: { "aria-label": "Play as the agent" } });
  private readonly status = el("p", { class: "play-status", attrs: { role: "status" } });
  private readonly problem = el("p", { class: "play-problem", attrs: { role: "alert" } });
  private readonly said = el("textarea", {
    class: "play-say-text",
    attrs: { rows: "2", "aria-label": "Message to the user", placeholder: "Say something to the user (ends your turn)" },
  });
  private readonly say = button("Say to the user", { class: "play-say" }, () => this.sayToUser());
  private readonly quit = button("Quit", { class: "play-quit", title: "End the episode (as /quit in the terminal)" }, () =>
    this.send({ type: "play-quit" }),
  );
  private readonly toolsList = el("div", { class: "play-tools" });
  private forms: ToolForm[] = [];
  /** The tools the folds were built for (suggestions aside): a new turn keeps what was typed. */
  private shape = "";

  constructor(private readonly send: (request: PlayRequest) => void) {
    this.element.hidden = true;
    replaceChildren(
      this.element,
      el("div", { class: "play-head" }, el("strong", { text: "You play the agent" }), this.status),
      this.problem,
      el("div", { class: "play-say-row" }, this.said, this.say, this.quit),
      this.toolsList,
    );
  }

  render(message: PlayFormMessage): void {
    this.element.hidden = false;
    const shape = JSON.stringify(message.tools.map((t) => ({ ...t, fields: t.fields.map((f) => ({ ...f, suggestions: [] })) })));
    if (shape !== this.shape) {
      this.shape = shape;
      this.forms = message.tools.map((tool, i) => toolForm(tool, i, (form) => this.callTool(form)));
      replaceChildren(this.toolsList, ...this.forms.map((f) => f.call.closest("details")));
    }
    for (const form of this.forms) {
      const tool = message.tools.find((t) => t.name === form.tool.name);
      for (const field of tool?.fields ?? []) {
        const list = form.lists.get(field.name);
        if (list) replaceChildren(list, ...field.suggestions.map((s) => el("option", { attrs: { value: s } })));
      }
    }
    const open = message.yourTurn && !message.ended;
    this.status.textContent = message.ended
      ? "The episode is over."
      : open
        ? "Your turn: call a tool, or say something to the user."
        : "Waiting for the user and the tools…";
    this.problem.textContent = message.problem ?? "";
    this.problem.hidden = message.problem === null;
    for (const control of [this.say, this.quit, ...this.forms.map((f) => f.call)]) control.disabled = !open;
    this.said.disabled = message.ended;
  }

  private sayToUser(): void {
    const text = this.said.value;
    if (text.trim() === "") {
      this.showProblem("Type what to say to the user first.");
      return;
    }
    this.said.value = "";
    this.send({ type: "play-say", text });
  }

  private callTool(form: ToolForm): void {
    const texts = new Map([...form.inputs].map(([name, input]) => [name, input.value]));
    const args = formArguments(form.tool, texts);
    if (!args.ok) {
      this.showProblem(`${form.tool.name}: ${args.problem}`);
      return;
    }
    this.send({ type: "play-call", tool: form.tool.name, arguments: args.arguments });
  }

  private showProblem(problem: string): void {
    this.problem.textContent = problem;
    this.problem.hidden = false;
  }
}

function toolForm(tool: PlayTool, index: number, onCall: (form: ToolForm) => void): ToolForm {
  const inputs = new Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>();
  const lists = new Map<string, HTMLDataListElement>();
  const rows = tool.fields.map((field, j) => {
    const label = `${tool.name} ${field.name}`;
    const { input, list } = fieldInput(field, label, `play-values-${index}-${j}`);
    inputs.set(field.name, input);
    if (list) lists.set(field.name, list);
    return el(
      "label",
      { class: "play-field", title: field.description },
      el("span", { class: "play-field-name", text: `${field.name}${field.required ? "" : "?"}` }),
      el("span", { class: "play-field-kind", text: field.kind }),
      input,
      list,
      field.description ? el("span", { class: "play-field-doc", text: field.description }) : null,
    );
  });
  const call = button(`Call ${tool.name}`, { class: "play-call", attrs: { "data-tool": tool.name } }, () => onCall(form));
  const form: ToolForm = { tool, inputs, lists, call };
  el(
    "details",
    { class: "play-tool", attrs: { "data-tool": tool.name } },
    el("summary", {}, el("code", { text: tool.name }), tool.description ? ` ${tool.description.split("\n")[0]}` : ""),
    ...rows,
    el("div", { class: "play-call-row" }, call),
  );
  return form;
}

function fieldInput(
  field: PlayField,
  label: string,
  listId: string,
): { readonly input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement; readonly list: HTMLDataListElement | null } {
  const attrs = { "aria-label": label, "data-field": field.name };
  if (field.kind === "boolean" || field.kind === "enum") {
    const choices = field.kind === "boolean" ? ["true", "false"] : field.options;
    const select = el(
      "select",
      { attrs },
      el("option", { text: "(not given)", attrs: { value: "" } }),
      ...choices.map((c) => el("option", { text: c, attrs: { value: c } })),
    );
    return { input: select, list: null };
  }
  if (field.kind === "json") {
    return { input: el("textarea", { attrs: { ...attrs, rows: "1", placeholder: 'JSON, e.g. ["a", "b"]' } }), list: null };
  }
  const input = el("input", { attrs: { ...attrs, type: "text", list: listId, autocomplete: "off", spellcheck: "false" } });
  return { input, list: el("datalist", { attrs: { id: listId } }) };
}
