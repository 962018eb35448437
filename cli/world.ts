// `toolsandbox world [--pack P] [--json]`: a pack's default world, the one a scenario starts from
// unless it says otherwise, with the ids a scenario refers to (contacts, reminders, messages...).
// Timestamps are shown as the time expressions a scenario would write ("now - 3d"), since the
// default world is laid out relative to the scenario's clock.
import { packById } from "../engine/packs/registry.js";
import { DEFAULT_PACK_ID, PACK_IDS, type PackId } from "../engine/packs/types.js";
import { DEFAULT_NOW, DEFAULT_TIMEZONE } from "../engine/scenario/scenario-clock.js";
import { parseIso } from "../engine/world/clock.js";
import type { CellValue, ColumnSchema } from "../engine/world/types.js";
import { cellJson } from "../engine/world/cells.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { type Command, Option } from "commander";
import type { CliIO } from "./io.js";
import { renderTable, type Column } from "./table.js";

interface WorldOptions {
  readonly json?: boolean;
  readonly pack?: PackId;
}

const UNITS: readonly [string, number][] = [
  ["d", 86400],
  ["h", 3600],
  ["m", 60],
  ["s", 1],
];

/** A timestamp as a time expression relative to `now`: "now", "now - 3d", "now + 1h 30m". */
function relativeToNow(value: number, now: number): string {
  let rest = Math.round(Math.abs(value - now));
  if (rest === 0) return "now";
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return `now ${value < now ? "-" : "+"} ${parts.join(" ")}`;
}

function cellText(value: CellValue | undefined, column: ColumnSchema, now: number): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" && column.timestamp) return relativeToNow(value, now);
  return typeof value === "string" ? value : JSON.stringify(cellJson(value));
}

function worldCommand(options: WorldOptions, io: CliIO): ExitCode {
  const id = options.pack ?? DEFAULT_PACK_ID;
  const pack = packById(id);
  const now = parseIso(DEFAULT_NOW, DEFAULT_TIMEZONE) ?? 0;
  const world = pack.defaultWorld(now);
  if (options.json) {
    io.out(JSON.stringify({ pack: id, clock: { now: DEFAULT_NOW, timezone: DEFAULT_TIMEZONE }, tables: world }, null, 2));
    return EXIT.ok;
  }
  let first = true;
  for (const schema of pack.schemas.values()) {
    const rows = world[schema.name] ?? [];
    if (!first) io.out("");
    first = false;
    io.out(`${schema.name} (${plural(rows.length, "row")}; key ${schema.key})`);
    if (rows.length === 0) continue;
    const columns: Column<(typeof rows)[number]>[] = schema.columns.map((c) => ({
      header: c.name,
      cell: (row) => cellText(row[c.name], c, now),
    }));
    for (const line of renderTable(columns, rows)) io.out(`  ${line}`);
  }
  io.out("");
  const others = PACK_IDS.filter((p) => p !== id).join("|");
  io.out(
    `The ${id} pack's default world, at the default clock (${DEFAULT_NOW} ${DEFAULT_TIMEZONE}); timestamps relative to the scenario's now. --json prints it as data, --pack ${others} another pack's.`,
  );
  return EXIT.ok;
}

export function registerWorld(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("world")
    .description("print a world pack's default world, with the ids a scenario refers to")
    .addOption(new Option("--pack <id>", "the world pack").choices([...PACK_IDS]).default(DEFAULT_PACK_ID))
    .option("--json", "print the tables as JSON (timestamps as POSIX seconds at the default clock)")
    .action((opts: { json?: boolean; pack: PackId }) => setExit(worldCommand(opts, io)));
}
