// `npm run import:check`: the full ToolSandbox import against the user's checkout, through the
// built CLI. Needs TOOLSANDBOX_UPSTREAM (the checkout) and TOOLSANDBOX_PYTHON (a Python that
// imports it); without them it fails with one line saying so, it never passes silently.
// Prints: scenarios imported, files `validate` finds clean, references scoring 1.0 with no
// minefield hit, and the variants `run --augment` plays. Exit 1 unless all 129 import with 0
// validate errors, and the augmented run plays 8 variants of each.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const upstream = process.env.TOOLSANDBOX_UPSTREAM;
const python = process.env.TOOLSANDBOX_PYTHON;
if (!upstream || !python) {
  console.error(
    "import:check needs TOOLSANDBOX_UPSTREAM=<ToolSandbox checkout> and TOOLSANDBOX_PYTHON=<python that imports it>; neither test can run without them",
  );
  process.exit(1);
}

const EXPECTED = 129;
const work = mkdtempSync(join(tmpdir(), "toolsandbox-import-check-"));
const cli = (...args) => spawnSync(process.execPath, ["dist/cli.js", ...args], { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });

try {
  const out = join(work, "scenarios");
  const imported = cli("import", "toolsandbox", upstream, "--out", out, "--python", python);
  if (imported.status !== 0 && imported.status !== 1) {
    console.error(`import failed: ${(imported.stderr || imported.stdout).trim().split("\n").pop()}`);
    process.exit(1);
  }
  const files = readdirSync(out).filter((f) => f.endsWith(".scenario.yaml"));
  const validated = JSON.parse(cli("validate", out, "--json").stdout);
  const clean = validated.files.filter((f) => f.valid).length;
  // Errors of the format itself, apart from those of a reference played and scored (reference-*).
  const formatErrors = validated.files
    .flatMap((f) => f.diagnostics)
    .filter((d) => d.severity === "error" && !d.code.startsWith("reference-")).length;
  const findings = validated.files.filter((f) => !f.valid).map((f) => f.file.split("/").pop());
  cli("run", out, "--out", join(work, "runs"));
  const summary = JSON.parse(readFileSync(join(work, "runs", "summary.json"), "utf8"));
  const perfect = summary.scenarios.filter((s) => s.score === 1 && s.minefields.every((m) => m.matched_at === null)).length;
  const minefieldHits = summary.scenarios.filter((s) => s.minefields.some((m) => m.matched_at !== null)).length;
  cli("run", out, "--augment", "--out", join(work, "augmented"));
  const augmented = JSON.parse(readFileSync(join(work, "augmented", "summary.json"), "utf8"));
  const played = augmented.scenarios.filter((s) => !s.failed).length;

  console.log(`imported                 ${files.length} of ${EXPECTED}`);
  console.log(`format errors            ${formatErrors}`);
  console.log(`validate errors          ${validated.totals.errors} (clean files: ${clean})`);
  console.log(`reference scores 1.0     ${perfect} of ${files.length} (runs hitting a minefield: ${minefieldHits})`);
  console.log(`run --augment played     ${played} of ${files.length * 8}`);
  if (findings.length > 0) console.log(`files with validate errors (see each file's Finding line): ${findings.join(", ")}`);
  const ok = files.length === EXPECTED && formatErrors === 0 && played === EXPECTED * 8 && minefieldHits === 0;
  process.exit(ok ? 0 : 1);
} finally {
  rmSync(work, { recursive: true, force: true });
}
