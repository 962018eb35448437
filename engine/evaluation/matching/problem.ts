// The matcher's input and output types (matching.ts documents the rule they follow). Split out
// so that the helpers that transform a problem (index-compression.ts) need not import the matcher.
import type { SimilarityOracle, SimilarityRowOracle } from "./cache.js";
import type { MatchGate } from "./gates.js";
import type { ProgressSink } from "./search.js";

export interface MatchProblem {
  /** Nodes 0..nodeCount-1, the milestones (or minefields) in list order. */
  nodeCount: number;
  /** [u, v]: v must be matched at an index >= u's. Equal indices are allowed. */
  edges: readonly (readonly [number, number])[];
  /**
   * references[v]: the nodes whose matched index v's similarity reads; each must be an ancestor.
   * A reference to the initial state is not listed: the oracle resolves it itself.
   */
  references: readonly (readonly number[])[];
  /** Candidate message indices, inclusive (upstream: first user message .. last message). */
  lo: number;
  hi: number;
  similarity: SimilarityOracle;
  /** Optionally, `similarity` for a row of consecutive indices at once (SimilarityRowOracle); omitted: asked one by one. */
  similarityRow?: SimilarityRowOracle;
  /**
   * gates[v]: 0/1 conditions between v and one ancestor each (matching-gates.ts); v's value is
   * similarity(v, …) when every gate holds and 0 otherwise (the similarity may then be left
   * unasked). A gate's node may also be one of v's references, but a gate does not make it
   * readable through refIndex: only `references` are. Several gates on the same node must all
   * hold. Omitted: no gates.
   */
  gates?: readonly (readonly MatchGate[])[];
  /**
   * Optionally, whether index i (lo < i <= hi) is interchangeable with i - 1: every node's
   * similarity and every gate answer the same with any node moved between i - 1 and i, whatever
   * the other indices. Runs of such indices are matched as one (index-compression.ts); the answer is
   * the same as without, only cheaper. Omitted: every index is distinct.
   */
  sameAsPrevious?: (index: number) => boolean;
  /**
   * Optionally, which indices each node cannot tell apart (matching/classes.ts): the sweep then
   * remembers a referenced node's class instead of its index, and memoises similarities by
   * class. The answer is the same as without, only cheaper. Omitted: every index is distinct.
   */
  classes?: MatchClasses;
  /**
   * Where a match that takes long says how far it got (a line, no newline); omitted: standard
   * error. Nothing for the first two seconds, then at most a line every five (ProgressClock).
   */
  onProgress?: ProgressSink;
  /**
   * Optionally called each time the tie-break fixes one more node (`placed` of `nodeCount`, in node
   * order): how far a long match has come, as a fraction, for a progress bar.
   */
  onPlaced?: (placed: number, nodeCount: number) => void;
}

export interface MatchResult {
  /**
   * Sum of the assignment's similarities, added in node order. 0 for an empty DAG: the caller
   * turns that into a milestone score of 1 and a minefield score of 0 (reference §5.10).
   */
  total: number;
  /** assignment[v]: the index node v is matched at and its similarity there. Empty for no nodes. */
  assignment: readonly { index: number; similarity: number }[];
}

/** Which indices a node cannot tell apart (classes.ts makes them dense); see classes.ts for why equal classes give equal answers. */
export interface MatchClasses {
  /** Class of index `index` for node `node`'s own similarity and gates (any integer). */
  matched(node: number, index: number): number;
  /** Class of index `index` for the nodes that read `node` (references and gates; any integer). */
  referenced(node: number, index: number): number;
}
