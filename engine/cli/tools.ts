// `toolsandbox tools`: the tool catalog as a table, or as JSON for other programs.
import { TOOLS, catalogEntry } from "../tools/catalog.js";
import type { ToolDefinition } from "../tools/types.js";
import { EXIT, type ExitCode } from "./errors.js";
import { plural } from "./format.js";
import type { CliIO } from "./io.js";
import { renderTable, type Column } from "./table.js";

export interface ToolsOptions {
  readonly json?: boolean;
}

const COLUMNS: readonly Column<ToolDefinition>[] = [
  { header: "TOOL", cell: (t) => t.name },
  { header: "DOMAIN", cell: (t) => t.domain },
  { header: "KIND", cell: (t) => (t.action ? "action" : "read") },
  { header: "WEB", cell: (t) => (t.webBacked ? "offline data" : "") },
  { header: "PARAMETERS", cell: (t) => t.parameters.map((p) => (p.required ? p.name : `${p.name}?`)).join(", ") },
];

export function toolsCommand(options: ToolsOptions, io: CliIO): ExitCode {
  if (options.json) {
    io.out(JSON.stringify(TOOLS.map((t) => catalogEntry(t)), null, 2));
    return EXIT.ok;
  }
  for (const line of renderTable(COLUMNS, TOOLS)) io.out(line);
  io.out("");
  io.out(`${plural(TOOLS.length, "tool")}; "?" marks an optional parameter. --json prints the full catalog.`);
  return EXIT.ok;
}
