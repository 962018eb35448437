// What an import could not carry over exactly: one line per scenario and construct.
export interface ImportWarning {
  readonly scenario: string;
  /** Where in the upstream scenario, e.g. "milestones[2].constraints[0]". */
  readonly construct: string;
  readonly message: string;
}
