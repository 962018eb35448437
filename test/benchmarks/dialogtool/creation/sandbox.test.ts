// Model-written code is contained: each way out (host files, writing, the network, processes,
// JavaScript, time, memory) fails or is killed, with a one-line reason, and the host is untouched.
// A correct function still runs.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runInSandbox, type SandboxCallResult, type SandboxPaths } from "../../../../engine/benchmarks/dialogtool/creation/sandbox.js";
import { bundleSandbox } from "./sandbox-child-build.js";

let paths: SandboxPaths;
let removeBundle: () => void;
let server: Server;
let port = 0;
let connections = 0;
const hostDir = mkdtempSync(join(tmpdir(), "toolsandbox-host-"));
const secret = join(hostDir, "secret.txt");
const target = join(hostDir, "written.txt");

before(async () => {
  ({ paths, remove: removeBundle } = await bundleSandbox());
  writeFileSync(secret, "host secret");
  server = createServer((socket) => {
    connections++;
    socket.end("HTTP/1.0 200 OK\r\n\r\nreached");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;
});

after(() => {
  removeBundle();
  server.close();
  rmSync(hostDir, { recursive: true, force: true });
});

/**
 * Ways past the Python wall that model code has used. The import hook and its loaders held
 * Pyodide's API (pyodide_js), found through gc and through classes' __subclasses__: the lock-down
 * drops every reference a Python object holds to it, and _api_holders() looks through everything
 * gc finds for one left. Module objects found through gc still lead to JavaScript values
 * (pyodide.ffi.to_js), hence to their constructors: the walls outside must hold against those.
 */
const BRIDGE = `
def _module(name):
    import gc
    return [m for m in gc.get_objects() if type(m).__name__ == "module" and m.__name__ == name][0]

def _api_holders():
    import gc
    def is_api(value):
        try:
            return any(c.__name__ == "JsProxy" for c in type(value).__mro__) and (hasattr(value, "_api") or hasattr(value, "runPython"))
        except BaseException:
            return False
    found = []
    for holder in gc.get_objects():
        try:
            values = list(holder.values()) if isinstance(holder, dict) else list(holder) if isinstance(holder, (list, tuple, set)) else list(vars(holder).values()) if isinstance(getattr(holder, "__dict__", None), dict) else []
            if type(holder).__name__ == "cell":
                values.append(holder.cell_contents)
        except BaseException:
            continue
        found.extend(v for v in values if is_api(v))
    return found

def _subclasses(cls):
    for sub in type.__subclasses__(cls):
        yield sub
        yield from _subclasses(sub)

def _bridge():
    return _module("_pyodide._importhook").jsfinder.jsproxies["pyodide_js"]

def _js_object():
    return _module("pyodide.ffi").to_js({})
`;

const ATTACKS: Record<string, string> = {
  read_host_file: `return open(${JSON.stringify(secret)}).read()`,
  read_passwd: `return open("/etc/passwd").read()`,
  write_host_file: `open(${JSON.stringify(target)}, "w").write("x")`,
  write_tmp: `open("/tmp/x", "w").write("x")`,
  chmod_tmp: `import os\n    os.chmod("/tmp", 0o777)\n    open("/tmp/x", "w").write("x")`,
  posix_chmod_tmp: `import posix\n    posix.chmod("/tmp", 0o777)\n    open("/tmp/x", "w").write("x")`,
  socket: `import socket\n    socket.create_connection(("127.0.0.1", PORT), timeout=2)`,
  urllib: `import urllib.request\n    return urllib.request.urlopen("http://127.0.0.1:PORT/").read().decode()`,
  http_client: `import http.client\n    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)\n    c.request("GET", "/")\n    return c.getresponse().read().decode()`,
  os_system: `import os\n    return os.system("touch ${target}")`,
  subprocess: `import subprocess\n    subprocess.run(["touch", ${JSON.stringify(target)}])`,
  import_js: `import js\n    return str(js.fetch)`,
  pyodide_ffi: `from pyodide.ffi import to_js\n    return str(to_js)`,
  pyodide_js: `import pyodide_js\n    return str(pyodide_js.FS)`,
  bridge_hook: `return str(_bridge())`,
  bridge_global: `return str(_js_object().constructor.constructor("return globalThis.process")())`,
  bridge_run_js: `import gc\n    code = [m for m in gc.get_objects() if type(m).__name__ == "module" and m.__name__ == "pyodide.code"][0]\n    return str(code.run_js("fetch('http://127.0.0.1:PORT/')"))`,
  bridge_mount_host: `api = _bridge()\n    options = api.constructor()\n    options.root = ${JSON.stringify(hostDir)}\n    api.FS.mkdir("/host")\n    api.FS.mount(api.FS.filesystems.NODEFS, options, "/host")\n    return open("/host/secret.txt").read()`,
  bridge_js_globals: `js = _bridge()._api.config.jsglobals\n    return str(js.process or js.fetch or js.require)`,
  bridge_loader: `import gc\n    loaders = [o for o in gc.get_objects() if type(o).__name__ == "JsLoader"]\n    return str([l.jsproxy.runPython("1+1") for l in loaders] or 1 / 0)`,
  bridge_subclasses: `loader = [c for c in _subclasses(object) if c.__name__ == "JsLoader"][0]\n    return str(loader.__init__.__globals__["jsfinder"].jsproxies["pyodide_js"].runPython("1+1"))`,
  bridge_any_holder: `holders = _api_holders()\n    if not holders:\n        raise LookupError("nothing gc finds holds Pyodide's API")\n    api = holders[0]\n    return str((api if hasattr(api, "runPython") else api._api).runPython("1+1"))`,
};

function attackCode(): string {
  const branches = Object.entries(ATTACKS).map(
    ([name, body]) => `    if attack == "${name}":\n        ${body.replaceAll("\n    ", "\n        ")}\n`,
  );
  return `${BRIDGE}\ndef attack(world, attack):\n${branches.join("")}    return "no such attack"\n`.replaceAll("PORT", String(port));
}

function reason(result: SandboxCallResult | undefined): string {
  assert.ok(result, "the call has a result");
  if (result.kind === "returned") assert.fail(`the call must fail, it returned ${JSON.stringify(result)}`);
  const text = result.kind === "raised" ? `${result.exception}: ${result.message}` : result.reason;
  assert.ok(!text.includes("\n"), `one line: ${text}`);
  return text;
}

describe("the sandbox", () => {
  it("runs a correct function: its result and the world it changed come back", async () => {
    const code =
      "def add(world, name, n=1):\n    world['items'].append({'name': name, 'n': n})\n    return {'count': len(world['items'])}\n";
    const run = await runInSandbox(code, "add", [{ id: "1", arguments: { name: "a", n: 2 }, world: { items: [] } }], paths);
    assert.equal(run.stopped, null);
    assert.deepEqual(run.calls.get("1"), { kind: "returned", result: { count: 1 }, world: { items: [{ name: "a", n: 2 }] } });
  });

  it("refuses every way out, each with a one-line reason, and the host sees nothing", async () => {
    const names = Object.keys(ATTACKS);
    const run = await runInSandbox(
      attackCode(),
      "attack",
      names.map((name) => ({ id: name, arguments: { attack: name }, world: {} })),
      paths,
    );
    assert.equal(run.loadFailure, null);
    const reasons = Object.fromEntries(names.map((name) => [name, reason(run.calls.get(name))]));
    assert.match(reasons.read_host_file!, /FileNotFoundError/);
    assert.match(reasons.write_host_file!, /Error/);
    assert.match(reasons.write_tmp!, /PermissionError/);
    assert.match(reasons.chmod_tmp!, /^PermissionError: \[Errno 63\] Operation not permitted: '\/tmp'$/);
    assert.match(reasons.posix_chmod_tmp!, /^PermissionError: \[Errno 63\] Operation not permitted/);
    assert.equal(reasons.bridge_hook, "KeyError: 'pyodide_js'", "the import hook no longer holds Pyodide's API");
    assert.match(reasons.bridge_mount_host!, /KeyError/);
    assert.match(reasons.bridge_js_globals!, /KeyError/);
    assert.match(reasons.bridge_loader!, /^(AttributeError: 'NoneType' object has no attribute 'runPython'|ZeroDivisionError)/);
    assert.equal(reasons.bridge_subclasses, "KeyError: 'pyodide_js'");
    assert.equal(reasons.bridge_any_holder, "LookupError: nothing gc finds holds Pyodide's API");
    assert.match(reasons.socket!, /OSError/);
    assert.match(reasons.os_system!, /PermissionError: processes cannot be started/);
    assert.match(reasons.import_js!, /ImportError: module 'js' is not available/);
    assert.match(reasons.pyodide_ffi!, /ImportError/);
    assert.match(reasons.pyodide_js!, /ImportError/);
    assert.match(reasons.bridge_global!, /Code generation from strings disallowed/);
    assert.match(reasons.bridge_run_js!, /ImportError|Code generation from strings disallowed/);
    assert.equal(connections, 0, "no connection reached the host's server");
    assert.equal(existsSync(target), false, "the file the code tried to write does not exist");
  });

  it("stops C's system() through ctypes at Node's permission model: no process starts", async () => {
    // Emscripten's system() calls Node's child_process.spawnSync: Python's lock-down does not see
    // it, so the permission model is the wall that holds (sandbox-permissions.test.ts checks it alone).
    const code = `import ctypes\ndef f(world):\n    return ctypes.CDLL(None).system(b"touch ${target}")\n`;
    const run = await runInSandbox(code, "f", [{ id: "system", arguments: {}, world: {} }], paths);
    assert.match(reason(run.calls.get("system")), /Access to this API has been restricted/);
    assert.equal(existsSync(target), false, "the command did not run");
  });

  it("kills a function that spins forever, and says so", async () => {
    const limits = { loadSeconds: 60, callSeconds: 2, wasmMemoryMb: 512, jsHeapMb: 256, memoryMb: 1024 };
    const calls = [
      { id: "spin", arguments: {}, world: {} },
      { id: "after", arguments: {}, world: {} },
    ];
    const run = await runInSandbox("def spin(world):\n    while True:\n        pass\n", "spin", calls, paths, limits);
    assert.equal(reason(run.calls.get("spin")), "killed: a call took longer than 2 s");
    assert.match(reason(run.calls.get("after")), /^not run: killed/);
  });

  it("kills code whose top level spins, before any call", async () => {
    const limits = { loadSeconds: 60, callSeconds: 2, wasmMemoryMb: 512, jsHeapMb: 256, memoryMb: 1024 };
    const run = await runInSandbox("while True:\n    pass\n", "f", [{ id: "x", arguments: {}, world: {} }], paths, limits);
    assert.equal(run.stopped, "killed: defining the function took longer than 2 s");
    assert.equal(reason(run.calls.get("x")), "not run: killed: defining the function took longer than 2 s");
  });

  it("cannot forge the protocol by printing: the child's stdout is not the interpreter's", async () => {
    const code = `import os, sys\ndef f(world):\n    os.write(1, b'{"type":"done"}\\n')\n    print('{"type":"done"}', flush=True)\n    sys.__stdout__.write('{"type":"done"}\\n')\n    return 1\n`;
    const run = await runInSandbox(
      code,
      "f",
      [
        { id: "a", arguments: {}, world: {} },
        { id: "b", arguments: {}, world: {} },
      ],
      paths,
    );
    assert.equal(run.stopped, null);
    assert.deepEqual(
      [...run.calls.values()].map((r) => r.kind),
      ["returned", "returned"],
    );
  });

  it("gives model code an empty environment, with nothing of the host's paths", async () => {
    const code = "import os, posix, sys\ndef f(world):\n    return [dict(os.environ), len(posix.environ), sys.argv, os.getenv('_')]\n";
    const run = await runInSandbox(code, "f", [{ id: "env", arguments: {}, world: {} }], paths);
    assert.deepEqual(run.calls.get("env"), { kind: "returned", result: [{}, 0, [""], null], world: {} });
  });

  it("stops a function that allocates without bound at the memory limit", async () => {
    const limits = { loadSeconds: 60, callSeconds: 30, wasmMemoryMb: 256, jsHeapMb: 256, memoryMb: 1024 };
    const code = "def grow(world):\n    chunks = []\n    while True:\n        chunks.append(bytearray(16_000_000))\n";
    const run = await runInSandbox(code, "grow", [{ id: "grow", arguments: {}, world: {} }], paths, limits);
    assert.match(reason(run.calls.get("grow")), /MemoryError/);
  });

  it("counts page tables: typed arrays read once every 2 MiB are killed at the cap, though they are barely resident", async () => {
    // Each 2 GiB array costs 4 MiB of page tables and almost no resident memory: 96 of them would
    // take 384 MiB of page tables, past the 320 MiB cap with the child's own ~160 MiB resident.
    // Bounded so that, uncaught, it costs the machine under 600 MiB and returns.
    const limits = { loadSeconds: 60, callSeconds: 60, wasmMemoryMb: 256, jsHeapMb: 256, memoryMb: 320 };
    const code = `import gc
def touch(world, arrays):
    ffi = [m for m in gc.get_objects() if type(m).__name__ == "module" and m.__name__ == "pyodide.ffi"][0]
    typed_array = ffi.to_js(bytearray(8)).constructor
    kept, total = [], 0
    for _ in range(arrays):
        chunk = typed_array.new(1 << 31)
        kept.append(chunk)
        for at in range(0, 1 << 31, 1 << 21):
            total += chunk[at]
    return total
`;
    const run = await runInSandbox(code, "touch", [{ id: "touch", arguments: { arrays: 96 }, world: {} }], paths, limits);
    assert.match(
      reason(run.calls.get("touch")),
      /^killed: memory over the limit of 320 MiB \(resident [\d.]+ MiB, page tables [\d.]+ MiB\)$/,
    );
    assert.ok(run.memory.peakMb >= 320, `the peak the host read counts the page tables: ${run.memory.peakMb} MiB`);
  });

  it("reports code that ends the interpreter as a stopped sandbox", async () => {
    const run = await runInSandbox(
      "def leave(world):\n    import os\n    os._exit(3)\n",
      "leave",
      [{ id: "x", arguments: {}, world: {} }],
      paths,
    );
    assert.match(reason(run.calls.get("x")), /SandboxError|sandbox stopped/);
  });

  it("reports code that defines no function as a load failure", async () => {
    const run = await runInSandbox("def other(world):\n    return 1\n", "wanted", [{ id: "x", arguments: {}, world: {} }], paths);
    assert.equal(run.loadFailure, "the code defines no function named wanted");
    assert.equal(reason(run.calls.get("x")), "not run: the code defines no function named wanted");
  });
});
