// The host's side of the panel boundary: every message a panel posts is untrusted (the page shows
// model and tool output), so it is checked by the same guards the panel uses before any handler
// sees it. Links pass only as http/https; anything else is dropped and reported once to the log.
import type { NodeKind, PanelCommand, RunControl } from "../../engine/panel/protocol.js";
import type { PlayRequest } from "../../engine/panel/play-protocol.js";
import { parseViewRequest } from "../webview/validate/host-messages.js";

export interface ViewRequestHandlers {
  ready(): void;
  openLink(url: string): void;
  /** A run panel's request to open a file its run names; other views ignore it. */
  openFile?(path: string): void;
  revealNode(kind: NodeKind, id: string): void;
  runControl(action: RunControl): void;
  selected(index: number): void;
  command(command: PanelCommand): void;
  /** The runs view's requests; a run panel ignores them. */
  openRun?(file: string): void;
  compareRuns?(files: readonly [string, string]): void;
  saveAsScenario?(file: string): void;
  /** A played run's form (a run panel's request). */
  play?(request: PlayRequest): void;
}

/** Checks one message from a panel and calls its handler; returns why it was refused, or null. */
export function dispatchViewRequest(raw: unknown, handlers: ViewRequestHandlers): string | null {
  const checked = parseViewRequest(raw);
  if (!checked.ok) return checked.error;
  const request = checked.value;
  switch (request.type) {
    case "ready":
      handlers.ready();
      break;
    case "open-link":
      handlers.openLink(request.url);
      break;
    case "open-file":
      if (!handlers.openFile) return "open-file is a request of the run panel";
      handlers.openFile(request.path);
      break;
    case "reveal-node":
      handlers.revealNode(request.kind, request.id);
      break;
    case "run-control":
      handlers.runControl(request.action);
      break;
    case "selected":
      handlers.selected(request.index);
      break;
    case "command":
      handlers.command(request.command);
      break;
    case "open-run":
      if (!handlers.openRun) return "open-run is a request of the runs view";
      handlers.openRun(request.file);
      break;
    case "compare-runs":
      if (!handlers.compareRuns) return "compare-runs is a request of the runs view";
      handlers.compareRuns(request.files);
      break;
    case "save-as-scenario":
      if (!handlers.saveAsScenario) return "save-as-scenario is a request of the runs view";
      handlers.saveAsScenario(request.file);
      break;
    case "play-call":
    case "play-say":
    case "play-quit":
      if (!handlers.play) return `${request.type} is a request of a played run's panel`;
      handlers.play(request);
      break;
  }
  return null;
}
