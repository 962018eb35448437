// What a connected component of the matching problem is, and the interface every method that
// solves one implements (the tie-break driver, matching.ts, uses it; matching-strategy.ts picks the
// method). Split out so that the methods and the choice between them do not import each other.
import type { IndexWindow } from "./dag.js";
import type { EliminationComponent } from "./elimination/index.js";

export interface MatchComponent extends EliminationComponent {
  /** Problem ids of the component's nodes, ascending; local node v is nodes[v]. */
  readonly nodes: readonly number[];
}

export interface ComponentSolver {
  readonly strategy: "elimination" | "sweep" | "search";
  /** The best total over all the component's valid mappings. Called once, before choose(). */
  best(): number;
  /**
   * Node v's index under the tie-break. Nodes 0..v-1 are fixed in `windows` (one index each),
   * the others span lo..hi, and `current` is the best total inside `windows` (what best() or
   * the previous choose() returned). Returns the smallest index i such that a valid mapping
   * inside the windows with v at i totals >= need, and the best such total. If rounding leaves
   * no index reaching `need` (current itself is >= need in exact arithmetic), the earliest
   * index with the best total is returned instead.
   */
  choose(v: number, windows: readonly IndexWindow[], need: number, current: number): { index: number; total: number };
  /** Hands its large tables back for reuse (matching-buffers.ts); the solver is not used afterwards. */
  release(): void;
}
