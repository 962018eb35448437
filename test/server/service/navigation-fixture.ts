// A scenario where the same id is used in both sections and in text, for navigation tests.
export const NAV = `name: demo
user: { goal: found the contact, opening: o }
milestones:
  - id: found
    description: found it
    after: []
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: true }] }]
  - id: sent
    after: [found]
    constraints:
      - { kind: addition, table: MESSAGING, reference: found, target: [{ content: found }] }
minefields:
  - id: found
    constraints: [{ kind: snapshot, table: SETTING, target: [{ wifi: false }] }]
reference:
  - agent: found
  - end_conversation: true
`;

/** NAV with the cursor marker put at the n-th (0-based) occurrence of `word`, `shift` characters in. */
export function navAt(word: string, n: number, shift = 1): string {
  let at = -1;
  for (let i = 0; i <= n; i++) at = NAV.indexOf(word, at + 1);
  if (at < 0) throw new Error(`no occurrence ${n} of ${word}`);
  return `${NAV.slice(0, at + shift)}$0${NAV.slice(at + shift)}`;
}

/** The line numbers (0-based) of NAV that hold the n-th occurrence of each listed line fragment. */
export function lineOf(fragment: string): number {
  const index = NAV.split("\n").findIndex((l) => l.includes(fragment));
  if (index < 0) throw new Error(`no line with ${fragment}`);
  return index;
}
