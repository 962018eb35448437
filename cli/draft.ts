// `toolsandbox draft <trajectory> --out NEW.scenario.yaml`: a finished run turned into a draft
// scenario whose milestones come from what the run changed and said (docs/drafting.md), written,
// checked with the scenario checker, then measured by `strength` so the author sees at once which
// wrong agents it still passes. A damaged or errored run is refused in one line.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { formatDiagnostic } from "../engine/base/diagnostics.js";
import { writeFileAtomically } from "../engine/base/output-files.js";
import { plural } from "../engine/base/text.js";
import { draftScenario } from "../engine/drafting/draft.js";
import { draftRefusal } from "../engine/drafting/refusal.js";
import { EXIT, ExitError, type ExitCode, fsError } from "../engine/runner/errors.js";
import { checkScenarioText } from "../engine/scenario/resolve.js";
import { YamlSource } from "../engine/scenario/yaml-source.js";
import { scenarioStrength } from "../engine/strength/strength.js";
import { readRunFile } from "../engine/trajectory/run-damage.js";
import type { CliIO } from "./io.js";
import { printScenario } from "./strength.js";

interface DraftCommandOptions {
  readonly out: string;
  readonly name?: string;
  readonly force?: boolean;
  readonly strength: boolean;
}

const SCENARIO_NAME = /^[a-z0-9_]+$/;

export function registerDraft(program: Command, io: CliIO, setExit: (code: ExitCode) => void): void {
  program
    .command("draft")
    .description("turn a finished run into a draft scenario: its world, user, reference, and milestones from what the run changed")
    .argument("<trajectory>", "a *.trajectory.jsonl file of a run that played to its end")
    .requiredOption("--out <file>", "the scenario file to write (NEW.scenario.yaml)")
    .option("--name <name>", "the scenario's name ([a-z0-9_]+; default: from the --out file's name)")
    .option("--force", "overwrite --out when it exists")
    .option("--no-strength", "do not measure the draft's strength")
    .addHelpText(
      "after",
      "\nA damaged run file exits 4, an errored run (model_error, role_error, agent_disconnected, timed_out,\ncancelled) exits 1; each is one line. Then the draft is checked and its strength printed (docs/strength.md).",
    )
    .action(async (file: string, opts: DraftCommandOptions) => setExit(await draftCommand(file, opts, io)));
}

async function draftCommand(file: string, options: DraftCommandOptions, io: CliIO): Promise<ExitCode> {
  const name = options.name ?? nameFromFile(options.out);
  if (!SCENARIO_NAME.test(name)) throw new ExitError(`--name: "${name}" is not a scenario name (letters a-z, digits and _)`, EXIT.usage);
  if (!options.force && existsSync(options.out)) throw new ExitError(`${options.out}: exists already (--force overwrites it)`, EXIT.io);
  let checked: ReturnType<typeof readRunFile>;
  try {
    checked = readRunFile(file);
  } catch (e) {
    throw fsError(e, file);
  }
  const refusal = draftRefusal(checked);
  if (refusal !== null)
    throw new ExitError(`${file}: ${refusal.reason}`, refusal.kind === "damaged" ? EXIT.malformedTrajectory : EXIT.failed);
  const draft = draftScenario(checked.trajectory!, { name, source: basename(file) });
  writeFileAtomically(options.out, draft.text);
  io.out(`wrote ${options.out}: ${plural(draft.milestones, "milestone")}, a reference of ${plural(draft.steps, "step")}, from ${file}`);
  for (const note of draft.notes) io.out(`  note: ${note}`);

  const result = checkScenarioText(draft.text, options.out);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  for (const d of errors) io.err(formatDiagnostic(d));
  if (result.scenario === null || errors.length > 0) {
    io.err(`toolsandbox: ${options.out}: the draft has ${plural(errors.length, "error")}; fix them, then run toolsandbox strength`);
    return EXIT.failed;
  }
  if (!options.strength) return EXIT.ok;
  const strength = await scenarioStrength(result.scenario);
  printScenario({ file: options.out, src: new YamlSource(draft.text, options.out), strength }, io);
  return EXIT.ok;
}

/** "runs/new_task.scenario.yaml" -> "new_task": the name a scenario file is usually given. */
function nameFromFile(path: string): string {
  return basename(path)
    .replace(/\.scenario\.ya?ml$|\.ya?ml$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_");
}
