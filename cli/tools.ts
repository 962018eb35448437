// `toolsandbox tools`: a world pack's tools as a table, or as JSON for other programs.
import { packById } from "../engine/packs/registry.js";
import { appOf, isTransactional } from "../engine/scenario/apps.js";
import { DEFAULT_PACK_ID, PACK_IDS, type PackId, type WorldPack } from "../engine/packs/types.js";
import { catalogEntry } from "../engine/tools/catalog-entry.js";
import type { ToolDefinition } from "../engine/tools/types.js";
import { EXIT, type ExitCode } from "../engine/runner/errors.js";
import { plural } from "../engine/base/text.js";
import { type Command, Option } from "commander";
import type { CliIO } from "./io.js";
import { renderTable, type Column } from "./table.js";

interface ToolsOptions {
  readonly json?: boolean;
  /** The default pack when omitted. */
  readonly pack?: PackId;
}

const columns = (pack: WorldPack): readonly Column<ToolDefinition>[] => [
  { header: "TOOL", cell: (t) => t.name },
  { header: "APP", cell: (t) => appOf(pack, t.name) ?? "" },
  { header: "DOMAIN", cell: (t) => t.domain },
  { header: "KIND", cell: (t) => (t.action ? "action" : "read") },
  { header: "TRANSACTIONAL", cell: (t) => (isTransactional(pack, t.name) ? "yes" : "") },
  { header: "WEB", cell: (t) => (t.webBacked ? "offline data" : "") },
  { header: "PARAMETERS", cell: (t) => t.parameters.map((p) => (p.required ? p.name : `${p.name}?`)).join(", ") },
];

function toolsCommand(options: ToolsOptions, io: CliIO): ExitCode {
  const id = options.pack ?? DEFAULT_PACK_ID;
  const pack = packById(id);
  const { tools } = pack;
  if (options.json) {
    io.out(
      JSON.stringify(
        tools.map((t) => ({ ...catalogEntry(t, appOf(pack, t.name)), transactional: isTransactional(pack, t.name) })),
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  for (const line of renderTable(columns(pack), tools)) io.out(line);
  io.out("");
  const others = PACK_IDS.filter((p) => p !== id).join("|");
  io.out(
    `${plural(tools.length, "tool")} of the ${id} pack; "?" marks an optional parameter; a transactional tool needs the user's confirmation before it is called (DialogTool). --json prints the full catalog, --pack ${others} another pack's.`,
  );
  return EXIT.ok;
}

export function registerTools(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("tools")
    .description("list a world pack's tools")
    .addOption(new Option("--pack <id>", "the world pack").choices([...PACK_IDS]).default(DEFAULT_PACK_ID))
    .option("--json", "print every tool's catalog entry as JSON")
    .action((opts: { json?: boolean; pack: PackId }) => setExit(toolsCommand(opts, io)));
}
