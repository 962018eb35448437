import { test } from "node:test";
import { packTables } from "../../engine/packs/tables.js";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Episode } from "../../engine/episode/episode.js";
import { evaluate, firstUserMessageIndex, listMatchProblem, type EvaluationResult } from "../../engine/evaluation/evaluate.js";
import { SANDBOX_TABLE } from "../../engine/evaluation/guardrails.js";
import { constraintSimilarity } from "../../engine/evaluation/measures/index.js";
import type { GuardrailConstraint } from "../../engine/evaluation/measures/types.js";
import { StateCache } from "../../engine/evaluation/node-scorer.js";
import { createScriptedRoles } from "../../engine/roles/scripted.js";
import { checkScenarioText } from "../../engine/scenario/resolve.js";
import { readTrajectoryFile } from "../../engine/trajectory/reader.js";

// The evaluator hands its guardrails against milestones to the matcher as key gates
// (node-scorer.ts): two messages get the same key exactly when every guardrail of the pair holds
// between them. These tests check that equivalence against the guardrail measure itself, and
// that a milestone guarded against many parallel ones (once refused by the matcher) is scored.

const SAMPLES = "sample-scenarios/trajectories";

test("guardrail keys are equal exactly when the guardrails hold, on every saved sample trajectory", () => {
  let pairs = 0;
  let failing = 0;
  for (const file of readdirSync(SAMPLES).filter((f) => f.endsWith(".trajectory.jsonl"))) {
    const trajectory = readTrajectoryFile(join(SAMPLES, file));
    const scenario = trajectory.header.scenario;
    const messages = trajectory.messages;
    const first = firstUserMessageIndex(messages);
    if (first >= messages.length) continue;
    const states = new StateCache({
      messages,
      worldAt: (i) => trajectory.worldAt(i),
      initialIndex: first,
      schemas: packTables(scenario.world.pack).schemas,
    });
    const worldTables = Object.keys(scenario.world.tables).filter((t) => t !== SANDBOX_TABLE);
    for (const [noun, nodes] of [
      ["milestone", scenario.milestones],
      ["minefield", scenario.minefields],
    ] as const) {
      if (nodes.length === 0) continue;
      const { problem, scorer } = listMatchProblem(nodes, noun, worldTables, states, { first, last: messages.length - 1 });
      void problem;
      scorer.gates.forEach((gates, v) => {
        for (const gate of gates) {
          // The guardrails this gate stands for: the node's guardrails against gate.ref.
          const tables = scorer
            .results(v, first, () => first)
            .guardrails.filter((g) => g.reference?.id === nodes[gate.ref]!.id)
            .map((g) => g.table);
          assert.ok(tables.length > 0, `${file}: a gate of ${nodes[v]!.id} without guardrails`);
          for (let i = first; i < messages.length; i++) {
            for (let j = first; j <= i; j++) {
              const holds = tables.every((table) => {
                const guardrail: GuardrailConstraint = { kind: "guardrail", table, reference: { kind: "initial" } };
                const rows = (k: number) => states.table(table).rows(k);
                return constraintSimilarity(guardrail, { current: rows(i), reference: rows(j) }).similarity === 1;
              });
              assert.equal(gate.key(i) === gate.key(j), holds, `${file}: ${nodes[v]!.id} against ${nodes[gate.ref]!.id} at ${i} and ${j}`);
              pairs++;
              if (!holds) failing++;
            }
          }
        }
      });
    }
  }
  // The samples must exercise both answers.
  assert.ok(pairs > 1_000 && failing > 50, `${pairs} pairs checked, ${failing} failing`);
});

const ERRANDS = 10;

/**
 * Cellular is turned on (the root), then ten look-ups, each its own milestone after the root,
 * then the closing message: a milestone after all ten, so its automatic guardrails compare the
 * world at its message with the world at each errand's: ten gates. `betweenLastErrandAndClosing`
 * is a step played before the closing message.
 */
function errandsScenario(betweenLastErrandAndClosing: string): string {
  const names = Array.from({ length: ERRANDS }, (_, i) => `Friend ${i + 1}`);
  const errand = (name: string, i: number): string => `  - id: errand_${i + 1}
    after: [cellular_on]
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: execution_environment, recipient: agent, tool_trace: { tool_name: search_contacts, arguments: { name: ${name} } } }]
`;
  const search = (name: string): string => `  - calls:
      - tool: search_contacts
        arguments: { name: ${name} }
`;
  return `name: guarded_sink
clock: { now: 2026-01-15T09:00:00, timezone: America/Los_Angeles }
world:
  SETTING: { cellular: false }
user:
  goal: Look ten friends up.
  opening: Turn cellular on and look my friends up.
  demonstrations: []
milestones:
  - id: cellular_on
    constraints:
      - { kind: snapshot, table: SETTING, target: [{ cellular: true }] }
${names.map(errand).join("")}  - id: closing
    after: [${names.map((_, i) => `errand_${i + 1}`).join(", ")}]
    constraints:
      - kind: snapshot
        table: SANDBOX
        target: [{ sender: agent, recipient: user, content: All ten are looked up. }]
reference:
  - calls:
      - tool: set_cellular_service_status
        arguments: { on: true }
${names.map(search).join("")}${betweenLastErrandAndClosing}  - agent: All ten are looked up.
  - end_conversation: true
`;
}

async function score(text: string): Promise<EvaluationResult> {
  const { scenario, diagnostics } = checkScenarioText(text, "guarded.scenario.yaml");
  assert.ok(scenario, diagnostics.map((d) => `${d.range.start.line + 1}: ${d.code} ${d.message}`).join("\n"));
  const { agent, user } = createScriptedRoles(scenario);
  const episode = new Episode({ scenario, agent, user, seed: 1 });
  await episode.run();
  return evaluate(scenario, episode.messages, (i) => episode.world.at(i), episode.firstUserIndex, {
    endReason: episode.ended?.reason ?? null,
  });
}

test("a milestone guarded against ten parallel milestones is scored, and a change before it breaks its guardrails", async () => {
  const clean = await score(errandsScenario(""));
  assert.equal(clean.score, 1);
  const closing = clean.milestones.find((m) => m.id === "closing")!;
  assert.notEqual(closing.matched_at, null);
  // Every table but SANDBOX, against each errand: all hold where it matched.
  assert.equal(closing.guardrails.length, ERRANDS * 4);
  assert.ok(closing.guardrails.every((g) => g.similarity === 1));

  // A contact added after the last errand: CONTACT at the closing message differs from CONTACT
  // at every errand's message, so the closing milestone cannot match anywhere.
  const changed = await score(
    errandsScenario(`  - calls:
      - tool: add_contact
        arguments: { name: Lars Ulrich, phone_number: "+15550100" }
`),
  );
  const broken = changed.milestones.find((m) => m.id === "closing")!;
  assert.equal(broken.matched_at, null);
  assert.equal(broken.similarity, 0);
  assert.equal(changed.milestones.filter((m) => m.matched_at !== null).length, ERRANDS + 1);
  assert.equal(changed.score, (ERRANDS + 1) / (ERRANDS + 2));
});
