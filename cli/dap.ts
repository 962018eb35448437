// `toolsandbox dap`: the debug adapter (engine/debug) over stdin/stdout, for DAP clients other
// than VS Code (nvim-dap, Emacs dape); docs/debugging.md has their set-up. Stdout carries the
// protocol alone, so anything else the process would print goes to stderr.
import type { Command } from "commander";
import { ToolSandboxDebugAdapter } from "../engine/debug/adapter.js";
import { launchRoles } from "../engine/debug/launch-roles.js";
import { EXIT } from "../engine/runner/errors.js";

export function registerDap(program: Command): void {
  program
    .command("dap")
    .description("start the debug adapter (Debug Adapter Protocol over stdin/stdout, for nvim-dap, dape and other clients)")
    .addHelpText("after", "\ndocs/debugging.md describes the launch configurations, breakpoints and the nvim-dap set-up.")
    .action(async () => {
      console.log = (...parts: unknown[]) => console.error(...parts);
      const adapter = new ToolSandboxDebugAdapter((args) => launchRoles(args));
      const onSignal = (signal: NodeJS.Signals): void => void adapter.endSession({ kind: "signal", signal });
      process.once("SIGTERM", onSignal);
      process.once("SIGINT", onSignal);
      adapter.start(process.stdin, process.stdout);
      // Whatever ends the session (disconnect, the input's end, a bad frame, a signal), the live
      // episode is closed first: its trajectory ends and is scored, a cmd: agent's processes are gone.
      const end = await adapter.ended;
      if (end.kind === "protocol-error") process.stderr.write(`toolsandbox: dap: ${end.problem}\n`);
      const code = end.kind === "protocol-error" ? EXIT.failed : end.kind === "signal" ? EXIT.interrupted : EXIT.ok;
      // Exits once what was written has reached the client: a live episode may hold timers open.
      process.stdout.write("", () => process.exit(code));
      await new Promise<void>(() => undefined);
    });
}
