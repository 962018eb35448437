// System packages the browser, VS Code and Neovim tests need, probed by the files they provide (so a
// non-Debian machine that has them some other way passes too) and installed with apt-get where
// this process may (root, apt-get present). Elsewhere the caller gets one line naming the command.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** What each Debian package gives us, as a file whose presence says it is there. */
export const PACKAGES = {
  chromium: { provides: process.env.TOOLSANDBOX_CHROMIUM ?? "/usr/bin/chromium", why: "the panel and end-to-end tests drive it" },
  neovim: { provides: process.env.TOOLSANDBOX_NVIM ?? "/usr/bin/nvim", why: "the Neovim test drives the language server from it" },
  "fonts-liberation": { provides: "/usr/share/fonts/truetype/liberation", why: "Chromium renders the panel with them" },
  "libkrb5-dev": { provides: "/usr/include/gssapi/gssapi.h", why: "code-server's kerberos module builds from source" },
  ripgrep: { provides: "/usr/bin/rg", why: "code-server's ripgrep would otherwise download from GitHub" },
  python3: { provides: "/usr/bin/python3", why: "node-gyp builds code-server's native modules with it" },
  make: { provides: "/usr/bin/make", why: "node-gyp builds code-server's native modules with it" },
  "g++": { provides: "/usr/bin/g++", why: "node-gyp builds code-server's native modules with it" },
};

export function missing(names) {
  return names.filter((name) => {
    const known = PACKAGES[name];
    if (!known) throw new Error(`test setup: no probe for the package ${name}`);
    return !existsSync(known.provides);
  });
}

/** Root with apt-get, unless TOOLSANDBOX_NO_INSTALL=1 asks for the command instead. */
function canInstall() {
  if (process.env.TOOLSANDBOX_NO_INSTALL === "1") return false;
  return typeof process.getuid === "function" && process.getuid() === 0 && existsSync("/usr/bin/apt-get");
}

/**
 * Installs the missing ones among `names`. Returns null when all are there afterwards, else the
 * one line to show (the exact command a person with the rights would run).
 */
export function ensurePackages(names, logFile) {
  const absent = missing(names);
  if (absent.length === 0) return null;
  const command = `apt-get update && apt-get install -y ${absent.join(" ")}`;
  if (!canInstall()) {
    return `test setup: missing ${absent.join(", ")} (${absent.map((n) => PACKAGES[n].why).join("; ")}); run as root: ${command}`;
  }
  const started = Date.now();
  console.log(`test setup: installing Debian packages ${absent.join(" ")} with apt-get (once; log in ${logFile})`);
  mkdirSync(dirname(logFile), { recursive: true });
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", ...absent],
  ]) {
    const result = spawnSync("apt-get", args, { env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    appendFileSync(logFile, `$ apt-get ${args.join(" ")}\n${result.stdout ?? ""}${result.stderr ?? ""}\n`);
    if (result.status !== 0)
      return `test setup: \`apt-get ${args.join(" ")}\` failed (exit ${result.status ?? result.signal}); see ${logFile}`;
  }
  const still = missing(absent);
  if (still.length > 0)
    return `test setup: apt-get installed ${absent.join(" ")} but ${still.map((n) => PACKAGES[n].provides).join(", ")} is still missing; see ${logFile}`;
  console.log(`test setup: Debian packages installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return null;
}
