// Reading ToolTalk's eight databases from the user's copy of ToolTalk's data (its `databases`
// folder). Nothing of ToolTalk's data ships with this package: the importer reads the rows here and
// writes the ones a conversation needs into its scenario; ToolTalk's own evaluation of conversation
// files starts from them. File system errors are left to the caller, which knows how to report them.
import { type Dirent, existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Tables } from "../../world/types.js";
import { databaseTables, type DatabaseSources } from "./databases.js";

/** The databases' file names without ".json", as ToolTalk names them. */
export const DATABASE_NAMES = ["Account", "Alarm", "Calendar", "Email", "Message", "Reminder", "Weather", "HistoricWeather"] as const;

/** A folder holding all eight database files. */
export function isDatabasesFolder(folder: string): boolean {
  return DATABASE_NAMES.every((name) => existsSync(join(folder, `${name}.json`)));
}

/** A database file that is not JSON, named with the file. */
export class DatabaseFileError extends Error {}

function readJson(file: string): unknown {
  const text = readFileSync(file, "utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new DatabaseFileError(`${file}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The eight databases of `folder` as world rows, nobody logged in; a database of the wrong shape is an Error naming file and item. */
export function readToolTalkDatabases(folder: string): Tables {
  const read = (name: (typeof DATABASE_NAMES)[number]): unknown => readJson(join(folder, `${name}.json`));
  const sources: DatabaseSources = {
    Account: read("Account"),
    Alarm: read("Alarm"),
    Calendar: read("Calendar"),
    Email: read("Email"),
    Message: read("Message"),
    Reminder: read("Reminder"),
    Weather: read("Weather"),
    HistoricWeather: read("HistoricWeather"),
  };
  return databaseTables(sources, folder);
}

/**
 * The databases folder that goes with `path` (a data root, a conversation folder or file): the
 * first databases folder found walking down from `path` in sorted order, else one beside `path` or
 * beside any folder above it (ToolTalk keeps `databases/` next to `easy/` and `tooltalk/`).
 */
export function findDatabasesFolder(path: string): string | null {
  const below = (folder: string): string | null => {
    if (isDatabasesFolder(folder)) return folder;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return null;
    }
    for (const name of entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()) {
      const found = below(join(folder, name));
      if (found !== null) return found;
    }
    return null;
  };
  const inside = below(path);
  if (inside !== null) return inside;
  for (let dir = dirname(path), previous = path; dir !== previous; previous = dir, dir = dirname(dir)) {
    if (isDatabasesFolder(join(dir, "databases"))) return join(dir, "databases");
  }
  return null;
}
