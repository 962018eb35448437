// A seeded fuzz of the CLI over the families of issue 16: odd output paths, files past the size,
// milestone and nesting limits, numbers no float holds, symbolic links where output goes, clocks
// out of range, BOMs, mistyped tags, invalid UTF-8, and saved runs cut, corrupted or too long.
// Each generated input goes through the built CLI (validate, run, eval, replay) in its own
// process, and every answer must be:
//   - one line per error: each output line is a diagnostic (`file:line:col: severity code: …`),
//     a `toolsandbox: …` line, or one of the command's ordinary lines; never a stack trace or
//     JavaScript's own words ("Maximum call stack", "internal error");
//   - a documented exit code (0 to 4, see `toolsandbox --help`), never 70 or a signal;
//   - no hang: each process has TIME_LIMIT_MS;
//   - memory under a stated bound: each process runs with a HEAP_MB heap, which any of the
//     reviewer's cases (1.5 GB) would exceed.
// Bounded: CASES inputs, under a minute on a loaded 2-core machine. The seed is printed with any
// failure, so it reproduces.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SeededRandom } from "../../engine/episode/random.js";
import { CLI, requireBuild, removeTempDirs, tempDir } from "./harness.js";
import { aliasBomb, BASE_SCENARIO, deepBlockNesting, deepFlowNesting, longLine, manyMilestones } from "../fixtures/hostile-documents.js";

const SEED = 20_261_125;
const HEAP_MB = 200;
const TIME_LIMIT_MS = 30_000;
/** Scenario files validated (in batches) and trajectories read. */
const CASES = 60;
const DOCUMENTED_EXIT_CODES = [0, 1, 2, 3, 4];

const SAVED_RUN = readFileSync("sample-scenarios/trajectories/cellular_off_adapted.trajectory.jsonl", "utf8");

/** Scenario texts, each one of the families (or several at once). */
const SCENARIO_FAMILIES: readonly ((r: Pick) => string | Buffer)[] = [
  () => longLine(2_200_000 + 1),
  (r) => manyMilestones(65 + r.int(2_000)),
  (r) => deepFlowNesting(65 + r.int(1_500)),
  (r) => deepBlockNesting(65 + r.int(400)),
  () => aliasBomb(),
  (r) => BASE_SCENARIO.replace("milestones:", `max_messages: ${r.pick(["1e400", ".inf", ".nan", "-1e309", "20000"])}\nmilestones:`),
  (r) => BASE_SCENARIO.replace("now: 2026-01-15T09:00:00", `now: ${r.pick(["1e23", "-1e23", "253402300800", "-62135596801", "1e400"])}`),
  () => `\uFEFF${BASE_SCENARIO}`,
  (r) => BASE_SCENARIO.replace("name: cellular_off", `name: ${r.pick(['!!int "abc"', "!!float x", "!!bool 3", "!!null q", "!!int 0x1F"])}`),
  (r) => {
    const bytes = Buffer.from(BASE_SCENARIO);
    const at = r.int(bytes.length);
    return Buffer.concat([bytes.subarray(0, at), Buffer.from([r.pick([0xff, 0xc0, 0xed, 0xf5, 0x80])]), bytes.subarray(at)]);
  },
  (r) => BASE_SCENARIO.slice(0, r.int(BASE_SCENARIO.length)),
  (r) => {
    const at = r.int(BASE_SCENARIO.length);
    return `${BASE_SCENARIO.slice(0, at)}${r.pick(["[", "{", "&a ", "*a", "\t", '"', ": ", "- ", "1e400", "!!int ", "\u0000"])}${BASE_SCENARIO.slice(at)}`;
  },
];

/** Trajectory texts: cut, corrupted, with a BOM, or past the message limit. */
const TRAJECTORY_FAMILIES: readonly ((r: Pick) => string | Buffer)[] = [
  (r) => SAVED_RUN.slice(0, r.int(SAVED_RUN.length)),
  () => `\uFEFF${SAVED_RUN}`,
  (r) => {
    const at = r.int(SAVED_RUN.length);
    return `${SAVED_RUN.slice(0, at)}${r.pick(["}", "\n", "1e400", "NaN", "\u0000", '"'])}${SAVED_RUN.slice(at)}`;
  },
  () => Buffer.concat([Buffer.from(SAVED_RUN.slice(0, 200)), Buffer.from([0xff, 0xfe]), Buffer.from(SAVED_RUN.slice(200))]),
  (r) => {
    const lines = SAVED_RUN.split("\n");
    const message = lines.find((l) => l.startsWith('{"type":"message"')) ?? "";
    return [lines[0], ...Array.from({ length: 10_001 + r.int(10) }, () => message), ""].join("\n");
  },
];

interface Pick {
  int(below: number): number;
  pick<T>(items: readonly T[]): T;
}

function picker(seed: number): Pick {
  const random = SeededRandom.fromSeed(seed);
  const int = (below: number): number => random.nextUint32() % Math.max(1, below);
  return { int, pick: (items) => items[int(items.length)] as (typeof items)[number] };
}

interface Answer {
  readonly args: readonly string[];
  readonly status: number | null;
  readonly out: readonly string[];
}

function cli(args: readonly string[]): Answer {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args], {
    encoding: "utf8",
    timeout: TIME_LIMIT_MS,
    maxBuffer: 1 << 26,
    env: { PATH: process.env.PATH ?? "" },
  });
  const what = `seed ${SEED}: toolsandbox ${args.join(" ")}`;
  if (r.signal !== null)
    assert.fail(`${what}: killed by ${r.signal} (no answer in ${TIME_LIMIT_MS / 1000} s, or past ${HEAP_MB} MB of heap)`);
  assert.ok(DOCUMENTED_EXIT_CODES.includes(r.status ?? -1), `${what}: exit ${r.status} is not a documented exit code\n${r.stderr}`);
  return { args, status: r.status, out: [...r.stdout.split("\n"), ...r.stderr.split("\n")].filter((l) => l !== "") };
}

const DIAGNOSTIC = /^.+:\d+:\d+: (error|warning|info) [a-z0-9-]+: [^\n]+$/;
const PROBLEM = /^toolsandbox: \S.*$/;

/** Every line one of: a diagnostic, a problem line, or a line the command prints when all is well. */
function assertOneLinePerError(answer: Answer, ordinary: RegExp): void {
  for (const line of answer.out) {
    const what = `seed ${SEED}: toolsandbox ${answer.args.join(" ")}: ${JSON.stringify(line.slice(0, 200))}`;
    assert.doesNotMatch(line, /^\s+at |Maximum call stack|internal error|RangeError|TypeError/, what);
    assert.ok(DIAGNOSTIC.test(line) || PROBLEM.test(line) || ordinary.test(line), `${what} is neither a diagnostic nor a one-line problem`);
  }
}

let dir = "";
before(() => {
  requireBuild();
  dir = tempDir("hostile-fuzz");
});
after(removeTempDirs);

test(`validate: ${CASES} hostile scenario files, one line per problem, a documented exit code, bounded time and memory`, () => {
  const r = picker(SEED);
  const files: string[] = [];
  for (let i = 0; i < CASES; i++) {
    const family = SCENARIO_FAMILIES[i % SCENARIO_FAMILIES.length]!;
    const file = join(dir, `case-${String(i).padStart(3, "0")}.scenario.yaml`);
    writeFileSync(file, family(r));
    files.push(file);
  }
  // In batches of six, one process each: a file's problems never take its neighbours down.
  for (let i = 0; i < files.length; i += 6) {
    const answer = cli(["validate", ...files.slice(i, i + 6)]);
    assertOneLinePerError(answer, /^\d+ files? checked: /);
    assert.ok([0, 1].includes(answer.status ?? -1));
  }
});

test("run: hostile scenarios among valid ones and odd output paths; each valid scenario still gets its trajectory", () => {
  const r = picker(SEED + 1);
  const valid = "sample-scenarios/cellular_off_adapted.scenario.yaml";
  const linkTarget = join(dir, "link-target.txt");
  writeFileSync(linkTarget, "untouched\n");
  const outs: (() => string)[] = [
    () => "/proc/toolsandbox-fuzz",
    () => "/sys/toolsandbox-fuzz",
    () => {
      const file = join(dir, `a-file-${r.int(1e9)}`);
      writeFileSync(file, "");
      return join(file, "out");
    },
    () => {
      const out = join(dir, `links-${r.int(1e9)}`);
      mkdirSync(out);
      symlinkSync(linkTarget, join(out, "cellular_off_adapted.trajectory.jsonl"));
      return out;
    },
    () => join(dir, `fresh-${r.int(1e9)}`, "nested"),
  ];
  const writable = outs.length - 1;
  for (let i = 0; i < outs.length; i++) {
    const hostile = join(dir, `run-${i}.scenario.yaml`);
    writeFileSync(
      hostile,
      readFileSync("sample-scenarios/find_current_city_low_battery_mode_adapted.scenario.yaml", "utf8").replace(
        "latitude: 37.334606",
        `latitude: ${r.pick(["1e400", "-1e400", "37.3"])}`,
      ),
    );
    const out = outs[i]!();
    const answer = cli(["run", valid, hostile, "--out", out]);
    // Ordinary lines: the tables, the score line (or why there is none) and the totals.
    assertOneLinePerError(
      answer,
      /^$|^[A-Z_]+ {2,}|^[A-Z][a-z]+ {2,}|^[a-z_]+ {2,}|^score \d|^no score: \d+ errored|^\d+ scenarios?, \d+ failed, /,
    );
    if (i === writable)
      assert.ok(existsSync(join(out, "cellular_off_adapted.trajectory.jsonl")), `seed ${SEED}: the valid scenario's trajectory is written`);
  }
  assert.equal(readFileSync(linkTarget, "utf8"), "untouched\n", "nothing was written through the symbolic link");
});

test(`eval and replay: ${CASES / 4} damaged saved runs, one line per problem, exit 0 or 4`, () => {
  const r = picker(SEED + 2);
  for (let i = 0; i < CASES / 4; i++) {
    const family = TRAJECTORY_FAMILIES[i % TRAJECTORY_FAMILIES.length]!;
    const file = join(dir, `saved-${i}.trajectory.jsonl`);
    writeFileSync(file, family(r));
    const answer = cli([i % 2 === 0 ? "eval" : "replay", file]);
    assert.ok([0, 1, 4].includes(answer.status ?? -1), `seed ${SEED}: ${answer.args.join(" ")} exit ${answer.status}`);
    if (answer.status === 4) {
      // A malformed file: exactly one line, naming it.
      assert.equal(answer.out.length, 1, `seed ${SEED}: ${answer.args.join(" ")}:\n${answer.out.join("\n")}`);
      assertOneLinePerError(answer, /^$/);
    } else {
      // A readable file: the report is free text, but never a stack trace.
      for (const line of answer.out) assert.doesNotMatch(line, /^\s+at |Maximum call stack|internal error/);
    }
  }
});
