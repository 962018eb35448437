// Milestones from the ground-truth calls that succeeded, and the `after:` edges between them.
//
// One milestone per call, except that calls of one turn that all make the same kind of change to
// one table (three events created, four alarms deleted) share one milestone whose target lists
// every row: ToolTalk lets a turn's calls come in any order, and a single `addition` of three rows
// says the same thing order-free. Edges:
//
// - turns: every milestone of a turn comes after the last milestones of the turn before;
// - inside a turn, only what forces an order: the session and data dependencies
//   (dependencies.ts), and the changes to one table, which keep the ground truth's order (each is
//   compared with the state the one before it left, so they must come in that order);
// - each `addition`/`removal`/`update` is compared with the state at the milestone that last
//   changed the same table (an ancestor, by the edges above), or with the initial world.
//
// Every milestone leaves the tables the ground truth changes out of its guardrails: those tables
// are checked row by row by the constraints, and the order of changes inside a turn is free.
// Tables the ground truth never touches stay guarded: a change to them fails the milestones.
import type { JsonValue } from "../../../base/json.js";
import type { TableEffect } from "./effects.js";
import { rowJson, type ConstraintPart, type NodePart } from "./parts.js";
import type { GroundTruthCall } from "./script.js";
import { traceConstraints } from "./trace-constraints.js";

export interface PlannedCall {
  readonly call: GroundTruthCall;
  /** What the call returned when the reference was run. */
  readonly result: JsonValue;
  /** Its effects on the world; none means a tool-trace milestone. */
  readonly effects: readonly TableEffect[];
}

interface Unit {
  readonly calls: readonly PlannedCall[];
  readonly turn: number;
  /** First call's order: units are listed in this order. */
  readonly order: number;
  readonly tables: ReadonlySet<string>;
}

const groupable = (c: PlannedCall): boolean => c.effects.length === 1 && c.effects[0]?.kind !== "snapshot";

/** Calls each call depends on, directly or not, within its turn. */
function closure(dependsOn: ReadonlyMap<number, ReadonlySet<number>>): Map<number, Set<number>> {
  const memo = new Map<number, Set<number>>();
  const visit = (order: number): Set<number> => {
    const known = memo.get(order);
    if (known) return known;
    const all = new Set<number>();
    memo.set(order, all);
    for (const d of dependsOn.get(order) ?? []) {
      all.add(d);
      for (const dd of visit(d)) all.add(dd);
    }
    return all;
  };
  for (const order of dependsOn.keys()) visit(order);
  return memo;
}

function formUnits(calls: readonly PlannedCall[], dependsOn: ReadonlyMap<number, ReadonlySet<number>>, group: boolean): Unit[] {
  const ancestors = closure(dependsOn);
  const grouped = new Map<number, PlannedCall[]>();
  if (group) {
    const byTurnTable = new Map<string, PlannedCall[]>();
    for (const c of calls) {
      for (const effect of c.effects) {
        const key = `${c.call.turn}\u0000${effect.table}`;
        byTurnTable.set(key, [...(byTurnTable.get(key) ?? []), c]);
      }
    }
    for (const members of byTurnTable.values()) {
      const kinds = new Set(members.map((m) => m.effects[0]?.kind));
      const independent = members.every((m) => members.every((o) => !(ancestors.get(m.call.order)?.has(o.call.order) ?? false)));
      if (members.length > 1 && members.every(groupable) && kinds.size === 1 && independent) {
        for (const m of members) grouped.set(m.call.order, members);
      }
    }
  }
  const units: Unit[] = [];
  const placed = new Set<number>();
  for (const c of calls) {
    if (placed.has(c.call.order)) continue;
    const members = grouped.get(c.call.order) ?? [c];
    for (const m of members) placed.add(m.call.order);
    units.push({
      calls: members,
      turn: c.call.turn,
      order: c.call.order,
      tables: new Set(members.flatMap((m) => m.effects.map((e) => e.table))),
    });
  }
  return units;
}

function snake(tool: string): string {
  return tool.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

function unitIds(units: readonly Unit[]): string[] {
  const used = new Map<string, number>();
  return units.map((u) => {
    const base = `reply${u.turn + 1}_${snake(u.calls[0]?.call.tool ?? "call")}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** `after` edges as unit indices, or null when they form a cycle. */
function edges(units: readonly Unit[], dependsOn: ReadonlyMap<number, ReadonlySet<number>>): Set<number>[] | null {
  const unitOf = new Map<number, number>();
  units.forEach((u, i) => {
    for (const c of u.calls) unitOf.set(c.call.order, i);
  });
  const after = units.map(() => new Set<number>());
  units.forEach((u, i) => {
    for (const c of u.calls)
      for (const d of dependsOn.get(c.call.order) ?? []) {
        const from = unitOf.get(d);
        if (from !== undefined && from !== i) after[i]?.add(from);
      }
    // The previous unit of the same turn that changed one of the same tables.
    for (const table of u.tables) {
      for (let j = i - 1; j >= 0 && units[j]?.turn === u.turn; j--) {
        if (units[j]?.tables.has(table)) {
          after[i]?.add(j);
          break;
        }
      }
    }
  });
  if (hasCycle(after)) return null;
  // Units with no predecessor in their turn follow the last units of the previous turn that has any.
  const turns = [...new Set(units.map((u) => u.turn))];
  turns.forEach((turn, k) => {
    if (k === 0) return;
    const previous = turns[k - 1];
    const inPrevious = units.flatMap((u, i) => (u.turn === previous ? [i] : []));
    const sinks = inPrevious.filter((i) => !inPrevious.some((j) => after[j]?.has(i)));
    units.forEach((u, i) => {
      if (u.turn !== turn || [...(after[i] ?? [])].some((j) => units[j]?.turn === turn)) return;
      for (const s of sinks) after[i]?.add(s);
    });
  });
  return after;
}

function hasCycle(after: readonly Set<number>[]): boolean {
  const state = after.map(() => 0); // 0 new, 1 on the stack, 2 done
  const visit = (i: number): boolean => {
    if (state[i] === 1) return true;
    if (state[i] === 2) return false;
    state[i] = 1;
    for (const j of after[i] ?? []) if (visit(j)) return true;
    state[i] = 2;
    return false;
  };
  return after.some((_, i) => visit(i));
}

function describe(unit: Unit): string {
  const tools = [...new Set(unit.calls.map((c) => c.call.tool))].join(", ");
  const times = unit.calls.length > 1 ? ` (${unit.calls.length} calls)` : "";
  const where = `before reply ${unit.turn + 1}`;
  const effects = unit.calls[0]?.effects ?? [];
  if (effects.length === 0) return `${tools}${times} is called ${where}, with the arguments that matter to ToolTalk.`;
  const rows = (kind: TableEffect["kind"], table: string): number =>
    unit.calls.reduce(
      (n, c) => n + c.effects.filter((e) => e.kind === kind && e.table === table).reduce((m, e) => m + e.rows.length, 0),
      0,
    );
  const words: Record<TableEffect["kind"], string> = {
    addition: "added to",
    removal: "removed from",
    update: "changed in",
    snapshot: "set in",
  };
  const setTo = (e: TableEffect): string =>
    Object.entries(e.rows[0] ?? {})
      .map(([column, value]) => `${column} ${JSON.stringify(value)}`)
      .join(", ");
  const what = effects.map((e) =>
    e.kind === "snapshot" ? `${e.table} set to ${setTo(e)}` : `${rows(e.kind, e.table)} row(s) ${words[e.kind]} ${e.table}`,
  );
  return `${tools}${times} ${where}: ${what.join("; ")}.`;
}

/** The milestones of the calls, in call order; `changedTables` in the pack's table order. */
export function milestoneParts(
  calls: readonly PlannedCall[],
  dependsOn: ReadonlyMap<number, ReadonlySet<number>>,
  changedTables: readonly string[],
): NodePart[] {
  let units = formUnits(calls, dependsOn, true);
  let after = edges(units, dependsOn);
  if (after === null) {
    units = formUnits(calls, dependsOn, false);
    after = edges(units, dependsOn);
  }
  // Without groups every edge points to an earlier call, so there is no cycle left.
  if (after === null) throw new Error("milestone edges form a cycle even without grouped calls");
  const ids = unitIds(units);
  const lastChange = new Map<string, string>();
  return units.map((unit, i): NodePart => {
    const constraints: ConstraintPart[] = [];
    const first = unit.calls[0];
    if (first && first.effects.length === 0) {
      constraints.push(...traceConstraints(first.call.tool, first.call.arguments, first.result, first.call.recorded.response));
    }
    for (const effect of first?.effects ?? []) {
      const rows = unit.calls.flatMap((c) =>
        c.effects.filter((e) => e.kind === effect.kind && e.table === effect.table).flatMap((e) => e.rows),
      );
      const target = rows.map(rowJson);
      constraints.push(
        effect.kind === "snapshot"
          ? { kind: "snapshot", table: effect.table, target }
          : { kind: effect.kind, table: effect.table, reference: lastChange.get(effect.table) ?? "initial", target },
      );
    }
    for (const table of unit.tables) lastChange.set(table, ids[i] ?? "");
    return {
      id: ids[i] ?? "",
      description: describe(unit),
      after: [...(after?.[i] ?? [])].sort((a, b) => a - b).map((j) => ids[j] ?? ""),
      ...(changedTables.length > 0 ? { exclude: changedTables } : {}),
      constraints,
    };
  });
}
