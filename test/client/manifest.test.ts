// Issue 39, items 4 and 9, in package.json: the walkthrough (each step a command link and media
// that ships), New Scenario in File › New, the ToolSandbox view container and its views, the Run
// Scenario keybinding, settings in titled groups that hold every setting the host reads, and the
// scenario language's editor defaults (two spaces, suggestions while typing values).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

interface Command {
  readonly command: string;
  readonly title: string;
}
interface Step {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly media: { readonly markdown?: string; readonly image?: string; readonly altText?: string };
}
interface Section {
  readonly title: string;
  readonly properties: Record<string, { readonly order?: number }>;
}
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  icon: string;
  contributes: {
    commands: readonly Command[];
    menus: Record<string, readonly { command: string; when?: string; group?: string }[]>;
    keybindings: readonly { command: string; key: string; mac?: string; when: string }[];
    viewsContainers: { activitybar: readonly { id: string; title: string; icon: string }[] };
    views: Record<string, readonly { id: string; name: string }[]>;
    walkthroughs: readonly { id: string; title: string; steps: readonly Step[] }[];
    configuration: readonly Section[];
    configurationDefaults: Record<string, Record<string, unknown>>;
  };
};
const c = manifest.contributes;
const declared = new Set(c.commands.map((x) => x.command));
const shipped = readFileSync(".vscodeignore", "utf8")
  .split("\n")
  .filter((l) => l.startsWith("!"))
  .map((l) => l.slice(1));
/** Whether a file is let into the .vsix by a `!` line of .vscodeignore (exact, `dir/**` or `dir/*.ext`). */
const ships = (file: string): boolean =>
  shipped.some(
    (p) =>
      p === file ||
      (p.endsWith("/**") && file.startsWith(p.slice(0, -2))) ||
      (p.includes("*.") && file.startsWith(p.slice(0, p.indexOf("*"))) && file.endsWith(p.slice(p.indexOf("*") + 1))),
  );

/** The command ids the host registers (client/host/*.ts). */
function registeredCommands(): Set<string> {
  const ids = new Set<string>();
  for (const f of readdirSync("client/host")) {
    const text = readFileSync(join("client/host", f), "utf8");
    for (const m of text.matchAll(/(?:command|registerCommand)\("(toolsandbox\.[A-Za-z]+)"/g)) ids.add(m[1]!);
  }
  return ids;
}

test("the walkthrough has the five steps, each with a command link and media that exists and ships", () => {
  const [walkthrough] = c.walkthroughs;
  assert.ok(walkthrough);
  assert.deepEqual(
    walkthrough.steps.map((s) => s.id),
    ["write", "run", "debug", "suite", "agent"],
  );
  for (const step of walkthrough.steps) {
    const links = [...step.description.matchAll(/\]\(command:([A-Za-z.]+)/g)].map((m) => m[1]!);
    assert.ok(links.length > 0, `${step.id} has a command link`);
    for (const id of links) assert.ok(declared.has(id) || !id.startsWith("toolsandbox."), `${step.id} links ${id}, which is declared`);
    const media = step.media.markdown ?? step.media.image;
    assert.ok(media && existsSync(media), `${step.id}'s media ${media} exists`);
    assert.ok(ships(media), `${media} ships in the .vsix`);
    if (step.media.image) assert.ok(step.media.altText, `${step.id}'s image has alt text`);
  }
});

test("New Scenario is in File › New, Run Scenario has a key, and the ToolSandbox view has scenarios, runs and agents", () => {
  assert.deepEqual(
    c.menus["file/newFile"]?.map((m) => m.command),
    ["toolsandbox.newScenario"],
  );
  const key = c.keybindings.find((k) => k.command === "toolsandbox.runScenario");
  assert.ok(key, "a keybinding for Run Scenario");
  assert.match(key.when, /editorLangId == toolsandbox-scenario/);
  const [container] = c.viewsContainers.activitybar;
  assert.equal(container?.title, "ToolSandbox");
  assert.ok(existsSync(container.icon) && ships(container.icon), "the activity bar icon exists and ships");
  assert.deepEqual(
    c.views[container.id]?.map((v) => v.id),
    ["toolsandbox.scenarios", "toolsandbox.runs", "toolsandbox.agents"],
  );
  assert.ok(
    manifest.icon.endsWith(".png") && existsSync(manifest.icon) && ships(manifest.icon),
    "the extension's icon is a PNG that ships",
  );
  const png = readFileSync(manifest.icon);
  assert.equal(png.readUInt32BE(16), 128, "128 px wide");
});

test("every command the host registers is declared, and every declared command is registered", () => {
  const registered = registeredCommands();
  assert.deepEqual(
    [...declared].filter((id) => !registered.has(id)),
    [],
    "declared but never registered",
  );
  assert.deepEqual(
    [...registered].filter((id) => !declared.has(id)),
    [],
    "registered but not declared",
  );
  for (const [menu, entries] of Object.entries(c.menus))
    for (const e of entries) assert.ok(declared.has(e.command), `${menu} names ${e.command}, which is declared`);
  assert.ok(declared.has("toolsandbox.addAgent") && declared.has("toolsandbox.newScenario"));
});

test("settings come in titled groups by purpose, which hold every setting the host reads", () => {
  assert.ok(Array.isArray(c.configuration) && c.configuration.length >= 5, "an array of sections");
  const titles = c.configuration.map((s) => s.title);
  assert.equal(new Set(titles).size, titles.length);
  for (const s of c.configuration) assert.ok(Object.keys(s.properties).length <= 6, `${s.title} is small enough to read`);
  const all = c.configuration.flatMap((s) => Object.keys(s.properties));
  assert.equal(new Set(all).size, all.length, "no setting in two groups");
  const read = new Set<string>();
  for (const f of ["client/host/settings.ts", "client/host/commands.ts", "client/host/runner.ts", "client/host/model-roles.ts"]) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/get(?:<[^>]+>)?\("([a-zA-Z.]+)"\)/g)) read.add(`toolsandbox.${m[1]}`);
    for (const m of text.matchAll(/`\$\{role\}\.([a-zA-Z]+)`/g))
      for (const role of ["agent", "user", "judge"]) read.add(`toolsandbox.${role}.${m[1]}`);
  }
  read.delete("toolsandbox.toolsandbox");
  assert.ok(read.size >= 15, `the scan found the settings read: ${[...read].join(", ")}`);
  for (const key of read) assert.ok(all.includes(key), `${key} is read and has a group`);
  const group = (key: string): string | undefined => c.configuration.find((s) => key in s.properties)?.title;
  assert.equal(group("toolsandbox.agent.model"), group("toolsandbox.agent.baseUrl"));
  assert.notEqual(group("toolsandbox.agent.model"), group("toolsandbox.user.model"));
});

test("scenario files default to two spaces and suggest as you type, in values too, without word guesses", () => {
  const defaults = c.configurationDefaults["[toolsandbox-scenario]"];
  assert.ok(defaults);
  assert.equal(defaults["editor.tabSize"], 2);
  assert.equal(defaults["editor.insertSpaces"], true);
  assert.deepEqual(defaults["editor.quickSuggestions"], { other: "on", comments: "off", strings: "on" });
  assert.equal(defaults["editor.wordBasedSuggestions"], "off");
});

test("the .vsix's README is the one written for users, and every image it shows exists and ships", () => {
  assert.match(readFileSync("scripts/package.mjs", "utf8"), /"--readme-path",\s*"EXTENSION-README\.md"/);
  const readme = readFileSync("EXTENSION-README.md", "utf8");
  const images = [...readme.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(images.length >= 4, `images: ${images.join(", ")}`);
  for (const image of images) assert.ok(existsSync(image) && ships(image), `${image} exists and ships`);
  assert.ok(images.some((i) => i.endsWith("-light.png")) && images.some((i) => i.endsWith("-dark.png")), "light and dark shots");
  for (const link of [...readme.matchAll(/\]\((docs\/[^)#]+\.md)/g)].map((m) => m[1]!)) assert.ok(existsSync(link) && ships(link), link);
});

test("package.json names no key twice in one object: the later would silently replace the earlier, as two merged menus once did", async () => {
  // YAML 1.2 reads JSON, and refuses a duplicate key where JSON.parse keeps the last one.
  const { parseDocument } = await import("yaml");
  const problems = parseDocument(readFileSync("package.json", "utf8")).errors.map((e) => e.message.split("\n")[0]);
  assert.deepEqual(problems, []);
});

test("Save Run as Scenario is offered on a scenario's test item, not on its milestones or strength rows", () => {
  const menu = manifest.contributes.menus["testing/item/context"] ?? [];
  const save = menu.find((m) => m.command === "toolsandbox.saveRunAsScenario");
  assert.ok(save?.when, "the Testing view's item menu offers Save Run as Scenario");
  const pattern = /testId =~ \/(.*)\/$/.exec(save.when)?.[1];
  assert.ok(pattern, save.when);
  const offered = new RegExp(pattern);
  assert.ok(offered.test("scenario:file:///w/a.scenario.yaml"));
  assert.ok(!offered.test("scenario:file:///w/a.scenario.yaml#strength"));
  assert.ok(!offered.test("scenario:file:///w/a.scenario.yaml#strength:survivor:0"));
});
