// Puts Debian's `rg` where @vscode/ripgrep's postinstall looks before it downloads one from GitHub
// (which this project's machines cannot reach, so the whole code-server install would fail).
//
// Run before `npm ci`. The versions are read, not written down here: package-lock.json pins
// code-server; code-server's lib/vscode/npm-shrinkwrap.json pins the @vscode/ripgrep its own
// postinstall installs; that package names its cache folder after its version
// (`$TMPDIR/vscode-ripgrep-cache-<version>`) and its tarball after the ripgrep release it downloads
// (`ripgrep-<tag>-<target>.tar.gz`, the tag a constant in its lib/postinstall.js). Both packages
// are read from `npm pack` tarballs (npm's cache then serves the same code-server tarball to
// `npm ci`), or from node_modules when the locked code-server is installed already.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { arch, tmpdir } from "node:os";
import { dirname, join } from "node:path";

const DEBIAN_RG = "/usr/bin/rg";

function fail(message) {
  console.error(`seed-ripgrep-cache: ${message}`);
  process.exit(1);
}

function lockedVersion(name) {
  const version = JSON.parse(readFileSync("package-lock.json", "utf8")).packages?.[`node_modules/${name}`]?.version;
  if (typeof version !== "string") fail(`package-lock.json pins no ${name}`);
  return version;
}

/** One file of a registry package: from node_modules when that version is installed, else from `npm pack`. */
function packageFile(name, version, file, installedAt) {
  const installed = join(installedAt, "package.json");
  if (existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === version) {
    return readFileSync(join(installedAt, file), "utf8");
  }
  const work = mkdtempSync(join(tmpdir(), "seed-ripgrep-"));
  try {
    execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", work, "--silent"], { stdio: ["ignore", "ignore", "inherit"] });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tarball) fail(`npm pack ${name}@${version} wrote no tarball`);
    return execFileSync("tar", ["-xzOf", join(work, tarball), `package/${file}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function ripgrepPackageVersion() {
  const codeServer = lockedVersion("code-server");
  const shrinkwrap = packageFile("code-server", codeServer, "lib/vscode/npm-shrinkwrap.json", "node_modules/code-server");
  const version = JSON.parse(shrinkwrap).packages?.["node_modules/@vscode/ripgrep"]?.version;
  if (typeof version !== "string") fail(`code-server@${codeServer} pins no @vscode/ripgrep`);
  return version;
}

/** The release tag @vscode/ripgrep's postinstall downloads (`const VERSION = 'v13.0.0-10'`). */
function ripgrepReleaseTag(version) {
  const script = packageFile("@vscode/ripgrep", version, "lib/postinstall.js", "node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep");
  const tag = /const VERSION = '([^']+)'/.exec(script)?.[1];
  if (!tag) fail(`@vscode/ripgrep@${version}: no \`const VERSION = '...'\` in lib/postinstall.js`);
  return tag;
}

/** The target triple @vscode/ripgrep picks on Linux for this machine's architecture. */
function linuxTarget() {
  const machine = process.env.npm_config_arch || arch();
  if (machine === "x64") return "x86_64-unknown-linux-musl";
  if (machine === "arm64") return "aarch64-unknown-linux-musl";
  fail(`no Debian rg seeding for architecture ${machine}`);
}

if (process.platform !== "linux") fail("only Linux machines need (and get) a seeded ripgrep");
if (!existsSync(DEBIAN_RG)) fail(`${DEBIAN_RG} is missing: apt-get install ripgrep`);
const packageVersion = ripgrepPackageVersion();
const tarball = join(tmpdir(), `vscode-ripgrep-cache-${packageVersion}`, `ripgrep-${ripgrepReleaseTag(packageVersion)}-${linuxTarget()}.tar.gz`);
if (existsSync(tarball)) {
  console.log(`seed-ripgrep-cache: ${tarball} already there`);
} else {
  const staging = mkdtempSync(join(tmpdir(), "seed-ripgrep-rg-"));
  try {
    copyFileSync(DEBIAN_RG, join(staging, "rg"));
    mkdirSync(dirname(tarball), { recursive: true });
    // The archive holds the single file `rg`, as the upstream release archives do.
    execFileSync("tar", ["-czf", tarball, "-C", staging, "rg"]);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  console.log(`seed-ripgrep-cache: wrote ${tarball} from ${DEBIAN_RG}`);
}
