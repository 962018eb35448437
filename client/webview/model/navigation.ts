// Which messages the timeline lists (the role filter) and which of those a search finds. Kept
// apart from the DOM so stepping and searching are plain index arithmetic.
import type { Message, RoleName } from "../../../engine/episode/types.js";
import { ROLE_NAMES } from "../../../engine/episode/types.js";
import type { PanelTrajectory } from "./panel-trajectory.js";

export interface RoleFilter {
  /** Messages sent by these roles are listed. */
  readonly senders: ReadonlySet<RoleName>;
  /** Only messages this role could see (its view of the bus), or null for all. */
  readonly seenBy: RoleName | null;
  /**
   * The setup (system prompts and demonstrations, messages 0 to foldSetup - 1) folded into one row:
   * message 0 stands for all of them and the rest are not listed. 0: nothing folded.
   */
  readonly foldSetup: number;
}

export const NO_FILTER: RoleFilter = { senders: new Set(ROLE_NAMES), seenBy: null, foldSetup: 0 };

export function isFiltering(filter: RoleFilter): boolean {
  return filter.seenBy !== null || ROLE_NAMES.some((r) => !filter.senders.has(r));
}

function passes(message: Message, filter: RoleFilter): boolean {
  const index = message.sandbox_message_index;
  if (index < filter.foldSetup) return index === 0;
  return filter.senders.has(message.sender) && (filter.seenBy === null || message.visible_to.includes(filter.seenBy));
}

/** The listed message indices, ascending; extended in place as a live run adds messages. */
export class VisibleMessages {
  private indices: number[] = [];
  private scanned = 0;

  constructor(private filter: RoleFilter) {}

  reset(messages: readonly Message[], filter: RoleFilter): void {
    this.filter = filter;
    this.indices = [];
    this.scanned = 0;
    this.extend(messages);
  }

  /** Looks at the messages that arrived since the last call. */
  extend(messages: readonly Message[]): void {
    for (let i = this.scanned; i < messages.length; i++) {
      if (passes(messages[i]!, this.filter)) this.indices.push(i);
    }
    this.scanned = messages.length;
  }

  get length(): number {
    return this.indices.length;
  }

  /** The same list with the setup unfolded (itself when nothing is folded). */
  unfolded(messages: readonly Message[]): VisibleMessages {
    if (this.filter.foldSetup === 0) return this;
    const list = new VisibleMessages({ ...this.filter, foldSetup: 0 });
    list.extend(messages);
    return list;
  }

  /** The setup fold the list was built with (RoleFilter.foldSetup). */
  get filterFolds(): number {
    return this.filter.foldSetup;
  }

  /** The message index at list position `position`. */
  at(position: number): number | undefined {
    return this.indices[position];
  }

  /** The last listed message; null when none is. */
  newest(): number | null {
    return this.indices[this.indices.length - 1] ?? null;
  }

  /** Where a run opens: its first failing milestone when finished, else its first real user message (when listed). */
  opening(t: PanelTrajectory): number | null {
    const at = t.firstFailure() ?? t.setupEnd;
    if (at !== null && this.positionOf(at) !== -1) return at;
    return this.indices[0] ?? null;
  }

  /** The list position of message `index`, or -1 when it is filtered out. */
  positionOf(index: number): number {
    const p = this.firstAtOrAfter(index);
    return this.indices[p] === index ? p : -1;
  }

  /** The first listed message after `index` (or before it, with step -1); null past either end. */
  neighbour(index: number | null, step: 1 | -1): number | null {
    if (index === null) return (step === 1 ? this.indices[0] : this.indices[this.indices.length - 1]) ?? null;
    const p = this.firstAtOrAfter(index);
    const target = step === 1 ? (this.indices[p] === index ? p + 1 : p) : p - 1;
    return this.indices[target] ?? null;
  }

  all(): readonly number[] {
    return this.indices;
  }

  private firstAtOrAfter(index: number): number {
    let lo = 0;
    let hi = this.indices.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.indices[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The filter as applied: the user's, plus the setup (messages before `setupEnd`) folded into one
 * row unless it was opened, there is nothing to fold, or a role filter is on (it lists exactly
 * what it asks for).
 */
export function withSetupFold(filter: RoleFilter, setupEnd: number | null, open: boolean): RoleFilter {
  const end = setupEnd ?? 0;
  return { ...filter, foldSetup: open || end < 2 || isFiltering(filter) ? 0 : end };
}

/** Listed messages whose text contains `query` (case-insensitive), ascending. */
export function searchHits(trajectory: PanelTrajectory, visible: VisibleMessages, query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [];
  return visible.all().filter((i) => trajectory.searchText(i).includes(needle));
}

/** The first of `sorted` after `from` (before it, with step -1), wrapping around; null when empty. */
export function cycle(sorted: readonly number[], from: number | null, step: 1 | -1): number | null {
  if (sorted.length === 0) return null;
  if (from === null) return step === 1 ? sorted[0]! : sorted[sorted.length - 1]!;
  if (step === 1) return sorted.find((i) => i > from) ?? sorted[0]!;
  return [...sorted].reverse().find((i) => i < from) ?? sorted[sorted.length - 1]!;
}
