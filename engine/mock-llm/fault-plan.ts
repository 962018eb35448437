// Deciding, request by request, which faults hit. Each fault counts the requests it is eligible
// for and draws its own random numbers, so a given sequence of requests always meets the same
// faults (rate=P is reproducible from the seed, never from Math.random).
import { SeededRandom } from "../episode/random.js";
import { ENDING_FAULTS, type Fault } from "./faults.js";
import type { RequestRole } from "./identify.js";

/** What a fault's eligibility depends on. */
export interface RequestFacts {
  readonly side: RequestRole;
  /** The scripted answer carries tool calls (malformed-arguments needs some to break). */
  readonly replyHasToolCalls: boolean;
  /** The request offers tools (unknown-tool answers with a call, which needs tools on offer). */
  readonly offersTools: boolean;
  /** The names of the tools on offer (extra-call calls one of them). */
  readonly offeredTools?: readonly string[];
}

interface FaultState {
  readonly fault: Fault;
  readonly random: SeededRandom;
  eligible: number;
  injected: number;
}

const TWO_POW_32 = 0x1_0000_0000;

export class FaultPlan {
  private readonly states: FaultState[];

  constructor(faults: readonly Fault[]) {
    this.states = faults.map((fault) => ({ fault, random: SeededRandom.fromSeed(fault.seed ?? 0), eligible: 0, injected: 0 }));
  }

  /**
   * The faults that hit this request, in the order they were given. A fault that answers the
   * request itself (rate-limit, server-error, drop) ends the list: later faults never see it.
   */
  select(facts: RequestFacts): Fault[] {
    const hits: Fault[] = [];
    for (const state of this.states) {
      if (!eligible(state.fault, facts)) continue;
      if (!this.hits(state)) continue;
      hits.push(state.fault);
      if (ENDING_FAULTS.has(state.fault.kind)) break;
    }
    return hits;
  }

  private hits(state: FaultState): boolean {
    const { fault } = state;
    const n = ++state.eligible;
    // Drawn on every eligible request, so the n-th draw always belongs to the n-th request.
    const draw = fault.rate === undefined ? 0 : state.random.nextUint32() / TWO_POW_32;
    if (fault.times !== undefined && state.injected >= fault.times) return false;
    if (fault.first !== undefined && n > fault.first) return false;
    if (fault.every !== undefined && n % fault.every !== 0) return false;
    if (fault.rate !== undefined && draw >= fault.rate) return false;
    state.injected++;
    return true;
  }
}

function eligible(fault: Fault, facts: RequestFacts): boolean {
  if (fault.role !== undefined && fault.role !== facts.side) return false;
  if (fault.kind === "malformed-arguments") return facts.replyHasToolCalls;
  if (fault.kind === "unknown-tool") return facts.offersTools;
  // A detour only while the agent still has a step to take: after its last step there is none to put off.
  if (fault.kind === "extra-call") return facts.replyHasToolCalls && (facts.offeredTools ?? []).includes(fault.tool);
  return true;
}
