// `toolsandbox dap`: the debug adapter (engine/debug) over stdin/stdout, for DAP clients other
// than VS Code (nvim-dap, Emacs dape); docs/debugging.md has their set-up. Stdout carries the
// protocol alone, so anything else the process would print goes to stderr.
import type { Command } from "commander";
import { ToolSandboxDebugAdapter } from "../engine/debug/adapter.js";
import { launchRoles } from "../engine/debug/launch-roles.js";

export function registerDap(program: Command): void {
  program
    .command("dap")
    .description("start the debug adapter (Debug Adapter Protocol over stdin/stdout, for nvim-dap, dape and other clients)")
    .addHelpText("after", "\ndocs/debugging.md describes the launch configurations, breakpoints and the nvim-dap set-up.")
    .action(() => {
      console.log = (...parts: unknown[]) => console.error(...parts);
      const adapter = new ToolSandboxDebugAdapter((args) => launchRoles(args));
      adapter.start(process.stdin, process.stdout);
      // The adapter ends the process itself when the client disconnects.
      return new Promise<void>(() => undefined);
    });
}
