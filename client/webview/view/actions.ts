// What the controls, the keyboard and the views can ask of the panel.
import type { RoleName } from "../../../engine/episode/types.js";
import type { NodeKind, PanelCommand, RunControl } from "../../../engine/panel/protocol.js";

export type Direction = 1 | -1;

export interface PanelActions {
  select(index: number): void;
  /** The next (or previous) message in the timeline. */
  step(direction: Direction): void;
  /** The next (or previous) message where a milestone or minefield matched. */
  nextMatch(direction: Direction): void;
  /** The next (or previous) search hit. */
  nextHit(direction: Direction): void;
  first(): void;
  last(): void;
  togglePlay(): void;
  setSenders(senders: ReadonlySet<RoleName>): void;
  setSeenBy(role: RoleName | null): void;
  setQuery(query: string): void;
  runControl(action: RunControl): void;
  openLink(url: string): void;
  /** Open a file the run names (an errored run's log); the host checks the run names it. */
  openFile(path: string): void;
  revealNode(kind: NodeKind, id: string): void;
  /** Unfolds the setup row (system prompts and demonstrations) into its messages, or folds them again. */
  toggleSetup(): void;
  /** The empty panel's buttons. */
  command(command: PanelCommand): void;
  /** Shows or hides the list of keyboard shortcuts (toggles without an argument). */
  toggleShortcuts(visible?: boolean): void;
}
