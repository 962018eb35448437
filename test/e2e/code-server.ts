// code-server 4.100.3 (VS Code 1.100.3), started headless and isolated: everything it, VS Code and
// the extension host write (settings, extensions, logs, sockets, caches) lands in one $RUN folder
// that `stop()` removes. No marketplace requests (EXTENSIONS_GALLERY='{}'), no telemetry, no update
// check, no welcome page.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, onExit, startGroup, waitForHttpOk, type GroupProcess } from "./processes.js";

// Installed on first use by scripts/test-setup (scripts/run-tests.mjs runs it before the e2e tests).
const ENTRY = resolve(__dirname, "..", "..", ".vscode-test", "code-server", "node_modules", "code-server", "out", "node", "entry.js");

interface CodeServerOptions {
  /** Leave workspace trust on (restricted mode for a folder not yet trusted). Default: off. */
  readonly workspaceTrust?: boolean;
  /** .vsix files installed with `--install-extension` before the server starts. */
  readonly install?: readonly string[];
}

export class CodeServer {
  private constructor(
    /** The isolated folder: user data, extensions, XDG folders, TMPDIR, the server's log. */
    readonly run: string,
    readonly port: number,
    private readonly process: GroupProcess,
    private readonly forgetRun: () => void,
  ) {}

  /** The environment code-server, VS Code and the browser run with: every writable place inside `run`. */
  static environment(run: string): Record<string, string> {
    const inherited = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
    return {
      ...Object.fromEntries(inherited),
      EXTENSIONS_GALLERY: "{}",
      XDG_CONFIG_HOME: join(run, "xdg-config"),
      XDG_DATA_HOME: join(run, "xdg-data"),
      XDG_CACHE_HOME: join(run, "xdg-cache"),
      TMPDIR: join(run, "tmp"),
    };
  }

  static async start(options: CodeServerOptions = {}): Promise<CodeServer> {
    if (!existsSync(ENTRY))
      throw new Error(`${ENTRY} is missing: run \`node scripts/test-setup/index.mjs code-server\` (npm test does it)`);
    const run = mkdtempSync(join(tmpdir(), "toolsandbox-e2e-"));
    const forget = onExit(() => rmSync(run, { recursive: true, force: true }));
    try {
      for (const dir of ["udd/User", "exts", "xdg-config", "xdg-data", "xdg-cache", "tmp"]) mkdirSync(join(run, dir), { recursive: true });
      writeFileSync(join(run, "config.yaml"), "auth: none\ncert: false\n");
      writeFileSync(
        join(run, "udd", "User", "settings.json"),
        JSON.stringify(
          {
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": false,
            "telemetry.telemetryLevel": "off",
            "extensions.autoUpdate": false,
            "extensions.autoCheckUpdates": false,
            "update.mode": "none",
            "security.workspace.trust.startupPrompt": "never",
            "git.enabled": false,
            "editor.minimap.enabled": false,
          },
          null,
          2,
        ),
      );
      const env = CodeServer.environment(run);
      for (const vsix of options.install ?? []) {
        const installed = spawnSync(process.execPath, [ENTRY, ...CodeServer.dirArgs(run), "--install-extension", vsix], {
          env,
          encoding: "utf8",
        });
        if (installed.status !== 0 || !/was successfully installed/.test(installed.stdout)) {
          throw new Error(
            `code-server --install-extension ${vsix} failed (exit ${installed.status}):\n${installed.stdout}${installed.stderr}`,
          );
        }
      }
      const port = await freePort();
      const args = [
        ENTRY,
        "--config",
        join(run, "config.yaml"),
        "--bind-addr",
        `127.0.0.1:${port}`,
        "--auth",
        "none",
        "--disable-telemetry",
        "--disable-update-check",
        ...(options.workspaceTrust ? [] : ["--disable-workspace-trust"]),
        "--disable-getting-started-override",
        "--ignore-last-opened",
        ...CodeServer.dirArgs(run),
      ];
      const logFile = join(run, "code-server.log");
      const server = startGroup(process.execPath, args, { env, logFile });
      const tail = () => (existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-30).join("\n") : "");
      try {
        await waitForHttpOk(`http://127.0.0.1:${port}/healthz`, server, 60_000, tail);
      } catch (e) {
        await server.stop();
        throw e;
      }
      return new CodeServer(run, port, server, forget);
    } catch (e) {
      rmSync(run, { recursive: true, force: true });
      forget();
      throw e;
    }
  }

  private static dirArgs(run: string): string[] {
    return ["--user-data-dir", join(run, "udd"), "--extensions-dir", join(run, "exts")];
  }

  /** The workbench URL for `folder`; `payload` pairs go to VS Code as the `payload` parameter. */
  url(folder: string, payload: ReadonlyArray<readonly [string, string]> = []): string {
    const query = new URLSearchParams({ folder });
    if (payload.length > 0) query.set("payload", JSON.stringify(payload));
    return `http://127.0.0.1:${this.port}/?${query.toString()}`;
  }

  /** A `vscode-remote://` URI for a path on this machine, as the payload parameter needs. */
  remoteUri(path: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${path}`;
  }

  /** Stops the process group and removes `run`, first copying the server's and VS Code's logs to `keepLogsIn`. */
  async stop(keepLogsIn?: string): Promise<void> {
    try {
      await this.process.stop();
      if (keepLogsIn !== undefined) {
        mkdirSync(keepLogsIn, { recursive: true });
        cpSync(join(this.run, "code-server.log"), join(keepLogsIn, "code-server.log"));
        if (existsSync(join(this.run, "udd", "logs")))
          cpSync(join(this.run, "udd", "logs"), join(keepLogsIn, "vscode-logs"), { recursive: true });
      }
    } finally {
      rmSync(this.run, { recursive: true, force: true });
      this.forgetRun();
    }
  }
}
