// Publishing diagnostics: the checker's findings for each version shortly after it arrives, and,
// once edits have settled, the reference solution's own score and the scenario's strength (the
// wrong agents it passes, the right ones it fails) added as warnings.
//
// Timeline for one document:
//   open            check at once
//   change          check after a few milliseconds, or after a short debounce while typing
//                   (a burst of keystrokes is checked once); never while a completion, hover
//                   or other request waits for its answer: those answer from the new parse first
//   no errors, and no change for a while after the check
//                   score the reference and measure the strength in the background (files up
//                   to 512 KB); publish again with their findings
//   newer change    the stale scoring is cancelled, and the older findings are not shown with
//                   the new version (they point into the old text), unless its text is the one
//                   last scored (an undo)
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic, type PublishDiagnosticsParams } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "../../engine/base/diagnostics.js";
import { getScenarioDocument } from "../service/document.js";
import { documentDiagnostics, toLspDiagnostic } from "../service/diagnostics.js";
import type { ReferenceResult, ReferenceScoring } from "./reference-scoring.js";
import { fileName } from "./uris.js";

export interface DiagnosticsTiming {
  /** Delay before checking a change that comes alone (a paste, a quick fix, the first keystroke). */
  readonly quietDelayMs: number;
  /** Delay before checking a change that follows another within `burstWindowMs` (typing). */
  readonly debounceMs: number;
  readonly burstWindowMs: number;
  /** Quiet time after a version's diagnostics are published before its reference is scored. */
  readonly referenceIdleMs: number;
}

/**
 * A change on its own is checked almost at once; the few milliseconds let a request sent with it
 * (completion after a keystroke) be answered first. While the author types, changes are checked
 * after a short debounce, so a burst of keystrokes costs one check, not one each.
 */
export const DEFAULT_TIMING: DiagnosticsTiming = { quietDelayMs: 10, debounceMs: 75, burstWindowMs: 300, referenceIdleMs: 600 };

/**
 * The largest text whose reference is scored while editing: 16 times the largest real scenario
 * (docs/limits.md). Past it the scoring would hold a worker of a hundred megabytes or more for
 * seconds after every pause in typing; `toolsandbox validate` scores a file of any size.
 */
const REFERENCE_SCORING_MAX_CHARS = 512 * 1024;

/** How long a check waits, each time, for the feature requests being answered. */
const REQUEST_DEFER_MS = 2;

interface DocumentState {
  checkTimer: NodeJS.Timeout | null;
  referenceTimer: NodeJS.Timeout | null;
  /** When the latest change arrived (performance.now()). */
  changedAt: number;
  /** The checker's diagnostics last published, and the version they belong to. */
  checked: { version: number; text: string; diagnostics: LspDiagnostic[] } | null;
  /**
   * The reference and strength findings of the last scored text (reused as is when the text comes
   * back, e.g. an undo), and its strength verdict for the CodeLens.
   */
  scored: { text: string; diagnostics: LspDiagnostic[]; strength: string | null } | null;
}

export class DiagnosticsPublisher {
  private readonly states = new Map<string, DocumentState>();
  /** Documents already logged as too large to score while editing (logged once each). */
  private readonly tooLargeToScore = new Set<string>();
  private strengthListener: ((uri: string) => void) | null = null;

  constructor(
    private readonly send: (params: PublishDiagnosticsParams) => void,
    private readonly current: (uri: string) => TextDocument | undefined,
    private readonly scoring: ReferenceScoring,
    private readonly log: (message: string) => void,
    private readonly timing: DiagnosticsTiming = DEFAULT_TIMING,
    /** Whether a feature request waits for its answer: the check, which cannot stop once started, goes after it. */
    private readonly requestsWaiting: () => boolean = () => false,
  ) {}

  /** A document opened (checked at once) or changed (checked after a delay, see DEFAULT_TIMING). */
  contentChanged(doc: TextDocument): void {
    const state = this.states.get(doc.uri);
    if (!state) {
      this.schedule(doc.uri, 0);
      return;
    }
    const typing = performance.now() - state.changedAt < this.timing.burstWindowMs;
    this.schedule(doc.uri, typing ? this.timing.debounceMs : this.timing.quietDelayMs);
  }

  closed(uri: string): void {
    const state = this.states.get(uri);
    if (state) this.clearTimers(state);
    this.states.delete(uri);
    this.tooLargeToScore.delete(uri);
    this.scoring.cancel(uri);
    this.send({ uri, diagnostics: [] });
  }

  /** The scoring's answer for some version; shown only if that version is still the one checked. */
  referenceScored(result: ReferenceResult): void {
    const state = this.states.get(result.uri);
    const doc = this.current(result.uri);
    if (!state?.checked || !doc || doc.version !== result.version || state.checked.version !== result.version) return;
    const diagnostics = result.diagnostics.map(referenceFinding);
    const strengthChanged = state.scored?.strength !== result.strength;
    state.scored = { text: state.checked.text, diagnostics, strength: result.strength };
    this.send({ uri: doc.uri, version: doc.version, diagnostics: [...state.checked.diagnostics, ...diagnostics] });
    if (strengthChanged) this.strengthListener?.(doc.uri);
  }

  /** The strength verdict of the document's last scored text; null before one was scored or while it has errors. */
  strengthOf(uri: string): string | null {
    const state = this.states.get(uri);
    const errors = state?.checked?.diagnostics.some((d) => d.severity === DiagnosticSeverity.Error) ?? true;
    return errors ? null : (state?.scored?.strength ?? null);
  }

  /** The strength findings behind the verdict, for the editor's Testing view (strength-notice.ts). */
  strengthFindingsOf(uri: string): LspDiagnostic[] {
    return this.strengthOf(uri) === null ? [] : (this.states.get(uri)?.scored?.diagnostics ?? []);
  }

  /** Told each time a document's strength verdict changes (the server then asks the client to refresh its lenses). */
  onStrengthChanged(listener: (uri: string) => void): void {
    this.strengthListener = listener;
  }

  dispose(): void {
    for (const state of this.states.values()) this.clearTimers(state);
    this.states.clear();
  }

  private schedule(uri: string, delay: number): void {
    const state = this.stateOf(uri);
    this.clearTimers(state);
    this.scoring.cancel(uri);
    state.changedAt = performance.now();
    state.checkTimer = setTimeout(() => this.guard(() => this.check(uri)), delay);
  }

  private check(uri: string): void {
    const state = this.states.get(uri);
    const doc = this.current(uri);
    if (!state || !doc) return;
    state.checkTimer = null;
    if (this.requestsWaiting()) {
      state.checkTimer = setTimeout(() => this.guard(() => this.check(uri)), REQUEST_DEFER_MS);
      return;
    }
    const text = doc.getText();
    const diagnostics = documentDiagnostics(getScenarioDocument(doc));
    state.checked = { version: doc.version, text, diagnostics };

    const hasErrors = diagnostics.some((d) => d.severity === DiagnosticSeverity.Error);
    const reused = !hasErrors && state.scored?.text === text ? state.scored.diagnostics : [];
    this.send({ uri, version: doc.version, diagnostics: [...diagnostics, ...reused] });
    // A file with errors has no scenario to play; an unchanged text already has its findings.
    if (hasErrors || state.scored?.text === text) return;
    if (text.length > REFERENCE_SCORING_MAX_CHARS) {
      if (!this.tooLargeToScore.has(uri))
        this.log(`${uri}: the reference is not scored while editing a file this large; \`toolsandbox validate\` scores it`);
      this.tooLargeToScore.add(uri);
      return;
    }
    // Counted from now, not from the change: after a slow check (a long file) the author has had
    // no time to go on typing yet, and a scoring started at once would compete with their edits.
    state.referenceTimer = setTimeout(() => this.guard(() => this.score(uri, doc.version)), this.timing.referenceIdleMs);
  }

  private score(uri: string, version: number): void {
    const state = this.states.get(uri);
    const doc = this.current(uri);
    if (!state || !doc || doc.version !== version) return;
    state.referenceTimer = null;
    this.scoring.request(uri, version, doc.getText(), fileName(uri));
  }

  private stateOf(uri: string): DocumentState {
    let state = this.states.get(uri);
    if (!state) {
      state = { checkTimer: null, referenceTimer: null, changedAt: 0, checked: null, scored: null };
      this.states.set(uri, state);
    }
    return state;
  }

  private clearTimers(state: DocumentState): void {
    if (state.checkTimer) clearTimeout(state.checkTimer);
    if (state.referenceTimer) clearTimeout(state.referenceTimer);
    state.checkTimer = null;
    state.referenceTimer = null;
  }

  /** A timer callback that throws would end the server process; log it instead. */
  private guard(action: () => void): void {
    try {
      action();
    } catch (e) {
      this.log(`diagnostics failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
}

/**
 * The reference and strength findings are advice about a valid scenario, not errors in the file:
 * an error among them is a warning here (the CLI's `validate` reports the reference's as errors, to
 * fail a build); a note stays a note.
 */
function referenceFinding(d: Diagnostic): LspDiagnostic {
  const lsp = toLspDiagnostic(d);
  return d.severity === "error" ? { ...lsp, severity: DiagnosticSeverity.Warning } : lsp;
}
