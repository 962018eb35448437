// The file paths a line of text names: an errored run's reason names the files that say more (a
// command agent's stderr log). The panel draws them as links; the host opens a path only if the
// run's own end names it, so a page cannot ask for any other file.

/** An absolute path (POSIX or Windows) at the start or after a space. */
const PATH = /(?<=^|\s)(?:\/|[A-Za-z]:\\)[^\s;,'"()]+/g;

/** Each path in `text` with where it starts; a trailing full stop or colon is not part of it. */
export function pathSpans(text: string): { readonly path: string; readonly start: number }[] {
  return [...text.matchAll(PATH)].map((m) => ({ path: m[0].replace(/[.:]+$/, ""), start: m.index ?? 0 }));
}

export const pathsIn = (text: string): string[] => pathSpans(text).map((s) => s.path);
