// A conversation the importer cannot turn into a scenario. The message is one line naming the file
// and the JSON path of what is wrong, like the reader's own errors (JsonInputError), so the CLI
// prints both kinds the same way and goes on with the other files.
export class ImportProblem extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${file}: ${path}: ${reason}`);
    this.name = "ImportProblem";
  }
}
