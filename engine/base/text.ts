// Small text helpers shared by the runner and the commands: counted nouns, and the one-line text of
// any thrown value.

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message || e.name : String(e));
