// Types shared by every world pack: tables are lists of flat rows, one schema per table.

/** A cell: a scalar, or a list of strings (ToolTalk's attendees and receivers; column type "string_list"). */
export type CellValue = string | number | boolean | null | readonly string[];
export type Row = Readonly<Record<string, CellValue>>;

/**
 * Column types follow the upstream polars dtypes: float columns print as Python floats.
 * "string_list" holds a list of strings (a polars List[str]).
 */
export type ColumnType = "string" | "float" | "int" | "bool" | "string_list";

export interface ColumnSchema {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly description: string;
  /** Timestamps may be written relative to the scenario clock ("now - 3d"). */
  readonly timestamp?: boolean;
  /** Free text: compared with ROUGE-L unless a constraint names another measure (reference 5.4); else exact. */
  readonly freeText?: boolean;
}

export interface TableSchema {
  readonly name: string;
  /** The column that identifies a row (person_id, reminder_id, ...). Not guaranteed unique: upstream data has duplicates. */
  readonly key: string;
  readonly description: string;
  readonly columns: readonly ColumnSchema[];
  /** True for tables that always hold exactly one row (SETTING). */
  readonly singleton?: boolean;
}

/** A full world: table name -> rows, in order. Order matters (guardrails compare order-sensitively). */
export type Tables = Readonly<Record<string, readonly Row[]>>;

/**
 * One row-level change. Positions are 0-based indices into the table before the change.
 * Updates carry both positions because upstream's modify_* tools delete the row and re-append it.
 * Every change carries the old values, so it can be inverted (step back in the panel).
 */
export type RowChange =
  | { readonly op: "insert"; readonly table: string; readonly position: number; readonly row: Row }
  | { readonly op: "delete"; readonly table: string; readonly position: number; readonly row: Row }
  | {
      readonly op: "update";
      readonly table: string;
      readonly position: number;
      readonly new_position: number;
      readonly old: Row;
      readonly new: Row;
    };
