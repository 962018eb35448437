import { readFileSync } from "node:fs";
export function bigScenario(lines: number): string {
  const head = readFileSync("/work/main/sample-scenarios/send_message_with_contact_content_cellular_off.scenario.yaml", "utf8");
  const out = [head.trimEnd(), "minefields:"];
  let i = 0;
  while (out.join("\n").split("\n").length < lines) {
    out.push(`  - id: m${i}`, `    description: minefield number ${i}`, `    constraints:`, `      - kind: addition`, `        table: CONTACT`, `        target:`, `          - { name: Person ${i}, phone_number: "+1555${String(i).padStart(6, "0")}" }`);
    i++;
  }
  return out.join("\n") + "\n";
}
