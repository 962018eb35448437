// The Testing view's tree: a folder item per folder that holds scenarios (nested as on disk,
// relative to the workspace folder), a scenario item per file, labelled with the scenario's `name`
// (the name its runs are written under), and under it one child per milestone and minefield, on
// its line. The tree follows the files: re-read on create and change, dropped on delete.
import * as vscode from "vscode";
import type { NodeKind } from "../../engine/panel/protocol.js";
import { readOutline, type NodeLocation } from "./node-lines.js";
import { currentText } from "./scenario-documents.js";

const SCENARIO_ITEM = "scenario:";
const FOLDER_ITEM = "folder:";

export const nodeItemId = (scenarioId: string, kind: NodeKind, id: string): string => `${scenarioId}#${kind}:${id}`;
/** The child that shows the scenario's strength, and its survivors under it. */
export const strengthItemId = (scenarioId: string): string => `${scenarioId}#strength`;
const fileStem = (uri: vscode.Uri): string => uri.path.replace(/^.*\//, "").replace(/\.scenario\.ya?ml$/, "");

/** The folders between the workspace folder and the file ([] for a file at the top). */
function folderSegments(relativePath: string): string[] {
  return relativePath
    .split("/")
    .slice(0, -1)
    .filter((s) => s !== "");
}

export class ScenarioTree {
  constructor(private readonly controller: vscode.TestController) {}

  /** The scenario item of `uri`, added or refreshed from its text. */
  async upsert(uri: vscode.Uri): Promise<vscode.TestItem | null> {
    if (uri.path.split("/").includes("node_modules")) return null;
    const parent = this.folderOf(uri);
    const id = SCENARIO_ITEM + uri.toString();
    let item = parent.get(id);
    let text = "";
    try {
      text = await currentText(uri);
    } catch {
      // A file that cannot be read keeps its file name and no children.
    }
    const outline = readOutline(text);
    const label = outline.name ?? fileStem(uri);
    if (!item || item.label !== label) {
      item = this.controller.createTestItem(id, label, uri);
      parent.add(item);
    }
    item.range = new vscode.Range(0, 0, 0, 0);
    if (outline.name !== null && outline.name !== fileStem(uri)) item.description = `${fileStem(uri)}.scenario.yaml`;
    this.setNodes(item, outline.nodes);
    return item;
  }

  remove(uri: vscode.Uri): void {
    const parent = this.folderOf(uri);
    parent.delete(SCENARIO_ITEM + uri.toString());
  }

  /** The scenario item of `uri`, if the tree has one. */
  scenarioOf(uri: vscode.Uri): vscode.TestItem | null {
    return this.scenarios().find((i) => i.id === SCENARIO_ITEM + uri.toString()) ?? null;
  }

  /** Every scenario item, in tree order. */
  scenarios(from: vscode.TestItemCollection = this.controller.items): vscode.TestItem[] {
    const found: vscode.TestItem[] = [];
    from.forEach((item) => {
      if (item.id.startsWith(SCENARIO_ITEM)) found.push(item);
      else if (item.id.startsWith(FOLDER_ITEM)) found.push(...this.scenarios(item.children));
    });
    return found;
  }

  /** The scenario items a run request names: a folder means its scenarios, a node its scenario. */
  scenariosOf(item: vscode.TestItem): vscode.TestItem[] {
    if (item.id.startsWith(FOLDER_ITEM)) return this.scenarios(item.children);
    // A node, the strength item or a survivor under it: the scenario it belongs to.
    let at: vscode.TestItem | undefined = item;
    while (at !== undefined && !at.id.startsWith(SCENARIO_ITEM)) at = at.parent;
    return at === undefined ? [] : [at];
  }

  /** Drops scenario items whose files are gone, and folders left empty. */
  prune(keep: ReadonlySet<string>, from: vscode.TestItemCollection = this.controller.items): void {
    const drop: string[] = [];
    from.forEach((item) => {
      if (item.id.startsWith(SCENARIO_ITEM) && !keep.has(item.id.slice(SCENARIO_ITEM.length))) drop.push(item.id);
      if (item.id.startsWith(FOLDER_ITEM)) {
        this.prune(keep, item.children);
        if (item.children.size === 0) drop.push(item.id);
      }
    });
    for (const id of drop) from.delete(id);
  }

  private setNodes(item: vscode.TestItem, nodes: readonly NodeLocation[]): void {
    const children = nodes.map((node) => {
      const child = this.controller.createTestItem(nodeItemId(item.id, node.kind, node.id), `${node.kind} ${node.id}`, item.uri);
      child.range = new vscode.Range(node.line, 0, node.line, 0);
      return child;
    });
    // The scenario's strength (strength-tests.ts) comes from the language server, not the text: it stays.
    const strength = item.children.get(strengthItemId(item.id));
    item.children.replace(strength ? [...children, strength] : children);
  }

  /** The collection a file's item belongs in, creating its folder items on the way. */
  private folderOf(uri: vscode.Uri): vscode.TestItemCollection {
    const workspace = vscode.workspace.getWorkspaceFolder(uri);
    const relative = workspace ? uri.path.slice(workspace.uri.path.replace(/\/$/, "").length + 1) : uri.path.replace(/^\//, "");
    let collection = this.controller.items;
    let path = workspace ? workspace.uri.toString() : "";
    for (const segment of folderSegments(relative)) {
      path = `${path}/${segment}`;
      const id = FOLDER_ITEM + path;
      let folder = collection.get(id);
      if (!folder) {
        folder = this.controller.createTestItem(id, segment, workspace ? vscode.Uri.parse(path) : undefined);
        collection.add(folder);
      }
      collection = folder.children;
    }
    return collection;
  }
}
