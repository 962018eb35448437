// A stand-in for the `toolsandbox` binary with only the mock-llm command, so the command can be
// run as a real process (signals, stdout) independently of the full CLI's other commands.
import { Command } from "commander";
import { registerMockLlm } from "../../engine/cli/mock-llm.js";
import { processIO } from "../../engine/cli/io.js";
import { CliError } from "../../engine/cli/errors.js";

const io = processIO();
const program = new Command("toolsandbox").exitOverride();
registerMockLlm(program, io);
program.parseAsync(process.argv).then(
  () => undefined,
  (e: unknown) => {
    if (e instanceof CliError) {
      io.err(`toolsandbox: ${e.message}`);
      process.exitCode = e.exitCode;
    } else if (e instanceof Error && "exitCode" in e && typeof e.exitCode === "number") {
      process.exitCode = e.exitCode === 0 ? 0 : 2;
    } else {
      throw e;
    }
  },
);
