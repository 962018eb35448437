// The floor plan (ARCHITECTURE.md, "Layers"): each folder imports only from folders below it.
// `npm run deps` runs this in `npm test`; test/architecture/layers.test.ts plants violations to
// show that each rule fails when it should.

const { builtinModules } = require("node:module");

/** engine/ folders from the bottom up; a folder may import from itself and from any folder before it. */
const ENGINE_LAYERS = [
  "base",
  "world",
  "python",
  "tools",
  "packs",
  "scenario",
  "episode",
  "roles",
  "evaluation",
  "trajectory",
  "benchmarks",
  "runner",
  "strength",
  "drafting",
  "panel",
  "reports",
  "compare",
  "mock-llm",
  "debug",
];

/** The top level, above engine/: server/ first (cli/ starts the language server), then cli/, then client/. */
const TOP = ["server", "cli", "client"];

/** Node's own modules, with or without `node:`, as dependency-cruiser names them (a reachable rule matches by path). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.map((m) => m.replace(/[/.]/g, "\\$&")).join("|")})$`;

const upwardEngineRules = ENGINE_LAYERS.map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `engine/${layer}/ imports only from the layers below it (${ENGINE_LAYERS.slice(0, index).join(", ") || "none"})`,
  severity: "error",
  from: { path: `^engine/${layer}/` },
  to: {
    path: [...ENGINE_LAYERS.slice(index + 1).map((l) => `^engine/${l}/`), "^(cli|server|client)/"],
  },
}));

const engineFolderRule = {
  name: "engine-folders-known",
  comment: "every engine module sits in one of the layer folders (a new folder gets a place in the order first)",
  severity: "error",
  from: { path: "^engine/", pathNot: `^engine/(${ENGINE_LAYERS.join("|")})/` },
  to: {},
};

const topRules = TOP.slice(0, -1).map((folder, index) => ({
  name: `top-${folder}`,
  comment: `${folder}/ imports engine/ and ${TOP.slice(0, index).join(", ") || "nothing else at the top"}`,
  severity: "error",
  from: { path: `^${folder}/` },
  to: { path: TOP.slice(index + 1).map((f) => `^${f}/`) },
}));

module.exports = {
  forbidden: [
    ...upwardEngineRules,
    engineFolderRule,
    ...topRules,
    {
      name: "engine-no-vscode",
      comment: "the engine runs in the CLI, the language server and the webview: never the editor's API",
      severity: "error",
      from: { path: "^(engine|cli|server)/" },
      to: { path: "^vscode$", dependencyTypes: ["core", "npm", "unknown", "undetermined"] },
    },
    {
      name: "no-cross-pack",
      comment: "a pack is one benchmark's world; packs never import each other (shared machinery lives below packs/)",
      severity: "error",
      from: { path: "^engine/packs/([^/]+)/" },
      to: { path: "^engine/packs/[^/]+/", pathNot: "^engine/packs/$1/" },
    },
    {
      name: "packs-behind-contract",
      comment:
        "outside packs/ and benchmarks/, a pack is reached through its WorldPack (packs/registry.ts, packs/tables.ts), never by its tables or tools",
      severity: "error",
      from: { path: "^engine/", pathNot: "^engine/(packs|benchmarks)/" },
      to: { path: "^engine/packs/[^/]+/" },
    },
    {
      name: "no-cross-benchmark",
      comment: "one home per benchmark; benchmarks never import each other (benchmarks/peers.ts, at the root, may gather them)",
      severity: "error",
      from: { path: "^engine/benchmarks/([^/]+)/" },
      to: { path: "^engine/benchmarks/[^/]+/", pathNot: "^engine/benchmarks/$1/" },
    },
    {
      name: "webview-no-host",
      comment:
        "the webviews run in the browser and talk to the extension by messages only (engine/panel/protocol.ts): never the extension host's modules",
      severity: "error",
      from: { path: "^client/webview/" },
      to: { path: "^client/", pathNot: "^client/webview/" },
    },
    {
      name: "webview-no-node",
      comment:
        "the webviews run in the browser: no Node module, imported or reached through engine modules, types included (their bundle is built for the browser, where none resolves, and their program has no Node types)",
      severity: "error",
      from: { path: "^client/webview/" },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: "service-no-handlers",
      comment:
        "server/service/ answers questions about a document; server/handlers/ wires it to the protocol: the service never imports the wiring",
      severity: "error",
      from: { path: "^server/service/" },
      to: { path: "^server/handlers/" },
    },
    {
      name: "no-circular",
      comment: "no import cycle between modules, type-only imports included (a cycle of types is where a cycle of values starts)",
      severity: "error",
      from: { path: "^(engine|cli|server|client)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".js", ".mjs", ".json"] },
    moduleSystems: ["es6", "cjs"],
  },
};
