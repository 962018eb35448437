// Bundles the CLI, the language server and the extension with esbuild.
// One bundle per entry point so each ships without node_modules (the .vsix stays small).
import { build } from "esbuild";
import { existsSync, mkdirSync, chmodSync } from "node:fs";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  logLevel: "warning",
  legalComments: "none",
};

mkdirSync("dist", { recursive: true });
const entries = [
  { entryPoints: ["engine/cli/main.ts"], outfile: "dist/cli.js", banner: { js: "#!/usr/bin/env node" } },
  { entryPoints: ["server/main.ts"], outfile: "dist/server.js" },
  { entryPoints: ["client/extension.ts"], outfile: "dist/extension.js", external: ["vscode"] },
];
await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build({ ...common, ...e })));
if (existsSync("dist/cli.js")) chmodSync("dist/cli.js", 0o755);
