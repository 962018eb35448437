// What tells a played mutant from the reference, as an observer of the run could see it: the
// world's history, the messages to and from the user, the rest of the bus, and whether a later
// step used a value only the changed step had returned (an agent using a value it never saw).
import type { JsonValue } from "../base/json.js";
import type { Message } from "../episode/types.js";
import type { Row, Tables } from "../world/types.js";
import type { Candidate } from "./candidate.js";
import type { PlayedRun } from "./play.js";
import { leafStrings, type ReferenceFacts, worldTables } from "./reference-facts.js";

const userLine = (m: Message): string | null =>
  m.sender === "user" || m.recipient === "user" ? JSON.stringify([m.sender, m.recipient, m.content]) : null;

/** The same world history and the same messages to and from the user. */
export function observablySame(reference: PlayedRun, mutant: PlayedRun): boolean {
  if (reference.states.length !== mutant.states.length) return false;
  if (reference.states.some((s, i) => JSON.stringify(s) !== JSON.stringify(mutant.states[i]))) return false;
  const a = reference.messages.map(userLine).filter((l) => l !== null);
  const b = mutant.messages.map(userLine).filter((l) => l !== null);
  return a.length === b.length && a.every((l, i) => l === b[i]);
}

/**
 * Whether the edited agent states or sends a value that in the reference only the changed calls
 * returned, before anything in its own run had shown it that value: the run is read in order, and
 * what reached the agent (the user, the system, tool results) counts only from when it arrived.
 */
export function usesUnseenValue(candidate: Candidate, facts: ReferenceFacts, mutant: PlayedRun): boolean {
  const returned = [
    ...new Set(
      candidate.changedCalls
        .flatMap((id) => leafStrings(facts.results.get(id)))
        .flatMap(writtenForms)
        .filter((v) => v.length >= 3),
    ),
  ];
  if (returned.length === 0) return false;
  let seen = "";
  for (const m of mutant.messages) {
    if (m.sender === "agent") {
      const said = `${m.content}\n${m.tool_call ? leafStrings(m.tool_call.arguments as JsonValue).join("\n") : ""}`;
      if (returned.some((v) => said.includes(v) && !seen.includes(v))) return true;
    } else if (m.visible_to.includes("agent")) {
      seen += `${m.content}\n${JSON.stringify(m.tool_trace ?? null)}\n`;
    }
  }
  return false;
}

/** A number as a reply may write it: as is, with thousands separators, rounded to 0-2 decimals. */
function writtenForms(value: string): string[] {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) return [value];
  const forms = [value, n.toLocaleString("en-US", { maximumFractionDigits: 2 }), n.toFixed(0), n.toFixed(1), n.toFixed(2)];
  return [...new Set(forms)];
}

/** The tables where the two runs differ: world tables by their history, SANDBOX by the bus. */
export function differingTables(reference: PlayedRun, mutant: PlayedRun): string[] {
  const tables = new Set<string>();
  const names = new Set([...reference.states, ...mutant.states].flatMap((s) => Object.keys(s)));
  for (const name of names) {
    const history = (run: PlayedRun): string => JSON.stringify(dedupe(run.states.map((s) => JSON.stringify(s[name] ?? null))));
    if (history(reference) !== history(mutant)) tables.add(name);
  }
  const bus = (run: PlayedRun): string =>
    JSON.stringify(
      run.messages.filter((m) => m.scripted !== true).map((m) => [m.sender, m.recipient, m.content, m.tool_trace as JsonValue]),
    );
  if (bus(reference) !== bus(mutant)) tables.add("SANDBOX");
  return [...tables].sort();
}

function dedupe(list: readonly string[]): string[] {
  return list.filter((v, i) => i === 0 || v !== list[i - 1]);
}

interface RowDifference {
  readonly table: string;
  /** Columns that differ between paired rows; empty when a row is there in one run and not the other. */
  readonly columns: readonly string[];
}

/** How the final worlds differ, table by table: the columns of rows changed, or whole rows. */
export function rowDifferences(reference: Tables, mutant: Tables): RowDifference[] {
  const out: RowDifference[] = [];
  for (const [table, rows] of worldTables(reference)) {
    const other = mutant[table] ?? [];
    const key = (r: Row): string => JSON.stringify(r);
    const mine = new Set(other.map(key));
    const theirs = new Set(rows.map(key));
    const onlyRef = rows.filter((r) => !mine.has(key(r)));
    const onlyMut = other.filter((r) => !theirs.has(key(r)));
    if (onlyRef.length === 0 && onlyMut.length === 0) continue;
    if (onlyRef.length !== onlyMut.length) {
      out.push({ table, columns: [] });
      continue;
    }
    const columns = new Set<string>();
    onlyRef.forEach((r, i) => {
      const m = onlyMut[i]!;
      for (const c of Object.keys(r)) if (JSON.stringify(r[c]) !== JSON.stringify(m[c])) columns.add(c);
    });
    out.push({ table, columns: [...columns].sort() });
  }
  return out;
}
