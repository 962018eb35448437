// What a panel keeps across its own reloads (VS Code's webview state): the selection, the search
// and whether the selection follows a live run. Read back as untrusted data.

export interface SavedState {
  readonly selected: number | null;
  readonly query: string;
  /** The selection was following the newest message (see Panel.following). */
  readonly following: boolean;
}

export function savedState(value: unknown): SavedState | null {
  if (typeof value !== "object" || value === null) return null;
  const { selected, query, following } = value as { selected?: unknown; query?: unknown; following?: unknown };
  const index = typeof selected === "number" && Number.isSafeInteger(selected) && selected >= 0 ? selected : null;
  return {
    selected: index,
    query: typeof query === "string" ? query.slice(0, 500) : "",
    following: typeof following === "boolean" ? following : index === null,
  };
}
