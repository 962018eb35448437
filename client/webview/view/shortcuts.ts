// Keyboard shortcuts, and the overlay that lists them ("?"). Keys typed into the search or jump
// boxes are theirs, except Escape, which leaves the box.
import type { PanelActions } from "./actions.js";
import { el } from "./dom.js";

interface Shortcut {
  readonly keys: readonly string[];
  readonly label: string;
  readonly run: (actions: PanelActions, focus: FocusTargets) => void;
}

interface FocusTargets {
  readonly search: HTMLInputElement;
  readonly jump: HTMLInputElement;
}

const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["ArrowDown", "ArrowRight", "j"], label: "next message", run: (a) => a.step(1) },
  { keys: ["ArrowUp", "ArrowLeft", "k"], label: "previous message", run: (a) => a.step(-1) },
  { keys: ["n"], label: "next milestone or minefield match", run: (a) => a.nextMatch(1) },
  { keys: ["N", "p"], label: "previous match", run: (a) => a.nextMatch(-1) },
  { keys: [" "], label: "play / pause", run: (a) => a.togglePlay() },
  { keys: ["Home"], label: "first message", run: (a) => a.first() },
  { keys: ["End"], label: "last message", run: (a) => a.last() },
  { keys: ["g"], label: "jump to a message number", run: (_, f) => reachable(f.jump).select() },
  { keys: ["/"], label: "search", run: (_, f) => reachable(f.search).select() },
  { keys: ["?"], label: "show or hide this list", run: (a) => a.toggleShortcuts() },
  { keys: ["Escape"], label: "close this list", run: (a) => a.toggleShortcuts(false) },
];

const KEY_NAMES: Readonly<Record<string, string>> = {
  ArrowDown: "↓",
  ArrowRight: "→",
  ArrowUp: "↑",
  ArrowLeft: "←",
  " ": "Space",
  Escape: "Esc",
};

/** A narrow toolbar keeps its search and jump boxes folded away: open it so the box can take focus. */
function reachable(input: HTMLInputElement): HTMLInputElement {
  if (input.offsetParent === null) input.closest(".toolbar")?.classList.add("expanded");
  return input;
}

export function installShortcuts(actions: PanelActions, focus: FocusTargets): void {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
    if (typing) {
      if (event.key === "Escape") {
        if (target === focus.search && focus.search.value !== "") {
          focus.search.value = "";
          actions.setQuery("");
        }
        (target as HTMLElement).blur();
      }
      return;
    }
    // Space and Enter on a focused button press it; leave them alone there.
    if (target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter")) return;
    if (target instanceof HTMLElement && target.closest("summary") && (event.key === " " || event.key === "Enter")) return;
    const shortcut = SHORTCUTS.find((s) => s.keys.includes(event.key));
    if (!shortcut) return;
    event.preventDefault();
    shortcut.run(actions, focus);
  });
}

export function shortcutsOverlay(onClose: () => void): HTMLElement {
  const close = el("button", { class: "tool", text: "Close", attrs: { type: "button" } });
  close.addEventListener("click", onClose);
  return el(
    "div",
    { class: "shortcuts", attrs: { role: "dialog", "aria-label": "Keyboard shortcuts", "data-testid": "shortcuts" } },
    el("h2", { text: "Keyboard shortcuts" }),
    el(
      "dl",
      {},
      ...SHORTCUTS.flatMap((s) => [
        el("dt", {}, ...s.keys.map((k) => el("kbd", { text: KEY_NAMES[k] ?? k }))),
        el("dd", { text: s.label }),
      ]),
      el("dt", {}, el("kbd", { text: "Enter" })),
      el("dd", { text: "in the search box: next match (Shift+Enter: previous)" }),
      el("dt", {}, el("kbd", { text: "Esc" })),
      el("dd", { text: "in the search or jump box: leave it (and clear the search)" }),
    ),
    close,
  );
}
