// Puts Debian's `rg` where @vscode/ripgrep's postinstall looks before it downloads one from GitHub
// (which this project's machines cannot reach, so the whole code-server install would fail).
//
// The versions are read, not written down here: scripts/vscode-tools/code-server/package-lock.json
// pins code-server; code-server's lib/vscode/npm-shrinkwrap.json pins the @vscode/ripgrep its own
// postinstall installs; that package names its cache folder after its version
// (`$TMPDIR/vscode-ripgrep-cache-<version>`) and its tarball after the ripgrep release it downloads
// (`ripgrep-<tag>-<target>.tar.gz`, the tag a constant in its lib/postinstall.js). Both packages
// are read from `npm pack` tarballs (npm's cache then serves the same code-server tarball to the
// install that follows).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { arch, tmpdir } from "node:os";
import { dirname, join } from "node:path";

const DEBIAN_RG = "/usr/bin/rg";

class SeedError extends Error {}

function lockedVersion(lockFile, name) {
  const version = JSON.parse(readFileSync(lockFile, "utf8")).packages?.[`node_modules/${name}`]?.version;
  if (typeof version !== "string") throw new SeedError(`${lockFile} pins no ${name}`);
  return version;
}

/** One file of a registry package, read from its `npm pack` tarball. */
function packageFile(name, version, file, env) {
  const work = mkdtempSync(join(tmpdir(), "seed-ripgrep-"));
  try {
    execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", work, "--silent"], {
      stdio: ["ignore", "ignore", "pipe"],
      env,
    });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new SeedError(`npm pack ${name}@${version} wrote no tarball`);
    return execFileSync("tar", ["-xzOf", join(work, tarball), `package/${file}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The target triple @vscode/ripgrep picks on Linux for this machine's architecture. */
function linuxTarget() {
  const machine = process.env.npm_config_arch || arch();
  if (machine === "x64") return "x86_64-unknown-linux-musl";
  if (machine === "arm64") return "aarch64-unknown-linux-musl";
  throw new SeedError(`no Debian rg seeding for architecture ${machine}`);
}

/** Seeds the cache for the code-server that `lockFile` pins; returns null, or one line saying why it could not. */
export function seedRipgrepCache(lockFile, env) {
  try {
    if (process.platform !== "linux") throw new SeedError("only Linux machines get a seeded ripgrep");
    if (!existsSync(DEBIAN_RG)) throw new SeedError(`${DEBIAN_RG} is missing: apt-get install ripgrep`);
    const codeServer = lockedVersion(lockFile, "code-server");
    const shrinkwrap = JSON.parse(packageFile("code-server", codeServer, "lib/vscode/npm-shrinkwrap.json", env));
    const version = shrinkwrap.packages?.["node_modules/@vscode/ripgrep"]?.version;
    if (typeof version !== "string") throw new SeedError(`code-server@${codeServer} pins no @vscode/ripgrep`);
    const script = packageFile("@vscode/ripgrep", version, "lib/postinstall.js", env);
    const tag = /const VERSION = '([^']+)'/.exec(script)?.[1];
    if (!tag) throw new SeedError(`@vscode/ripgrep@${version}: no \`const VERSION = '...'\` in lib/postinstall.js`);
    const tarball = join(tmpdir(), `vscode-ripgrep-cache-${version}`, `ripgrep-${tag}-${linuxTarget()}.tar.gz`);
    if (existsSync(tarball)) return null;
    const staging = mkdtempSync(join(tmpdir(), "seed-ripgrep-rg-"));
    try {
      copyFileSync(DEBIAN_RG, join(staging, "rg"));
      mkdirSync(dirname(tarball), { recursive: true });
      // The archive holds the single file `rg`, as the upstream release archives do.
      execFileSync("tar", ["-czf", tarball, "-C", staging, "rg"]);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return null;
  } catch (e) {
    return `test setup: cannot seed ripgrep's download cache: ${e instanceof SeedError ? e.message : String(e).split("\n")[0]}`;
  }
}
