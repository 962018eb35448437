// The Python the sandbox's child runs before any model code: two functions the child calls
// (`_define`, `_call`), then the lock-down. The lock-down is a second wall only: the first is the
// JavaScript side (no process, no fetch, no code from strings, Node's permission model), which
// holds even when model code gets past this one. It exists so that ordinary attempts fail with a
// plain Python error (ImportError, PermissionError) instead of a crashed interpreter.

/** Modules that bridge to JavaScript (or install packages): importing one fails in the sandbox. */
export const BLOCKED_MODULES: readonly string[] = ["js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip"];

export const SANDBOX_PYTHON = `
import sys, os, json, builtins

sys.dont_write_bytecode = True
_model_function = None

def _short(error):
    text = str(error).strip().splitlines()
    return (text[-1] if text else "")[:300]

def _define(code, name, _compile=compile, _exec=exec, _builtins=builtins):
    global _model_function
    namespace = {"__name__": "model_tool", "__builtins__": _builtins}
    try:
        _exec(_compile(code, "<model code>", "exec"), namespace)
    except BaseException as error:
        return type(error).__name__ + ": " + _short(error)
    function = namespace.get(name)
    if not callable(function):
        return "the code defines no function named " + name
    _model_function = function
    return ""

def _call(arguments_json, world_json, _loads=json.loads, _dumps=json.dumps):
    arguments = _loads(arguments_json)
    world = _loads(world_json)
    try:
        result = _model_function(world, **arguments)
    except BaseException as error:
        return _dumps({"kind": "raised", "exception": type(error).__name__, "message": _short(error)})
    try:
        return _dumps({"kind": "returned", "result": result, "world": world}, allow_nan=False)
    except BaseException as error:
        message = "the result or the world is not JSON: " + _short(error)
        return _dumps({"kind": "raised", "exception": "UnserializableResult", "message": message})

def _drop_references(bridges):
    # Walks everything gc finds once, before model code exists: each value's type is asked once
    # whether it is a JavaScript proxy, so that the walk stays a small part of the start-up.
    import gc
    bridge_ids = {id(b) for b in bridges}
    proxy_types = {}
    def is_bridge(value):
        if id(value) in bridge_ids:
            return True
        kind = type(value)
        proxy = proxy_types.get(kind)
        if proxy is None:
            proxy = proxy_types[kind] = any(c.__name__ == "JsProxy" for c in kind.__mro__)
        if not proxy:
            return False
        try:
            return hasattr(value, "_api") or hasattr(value, "runPython")
        except BaseException:
            return False
    gc.collect()
    for holder in gc.get_objects():
        try:
            if isinstance(holder, dict):
                for key in [k for k, v in holder.items() if is_bridge(v)]:
                    del holder[key]
            elif isinstance(holder, list):
                if any(is_bridge(v) for v in holder):
                    holder[:] = [v for v in holder if not is_bridge(v)]
            elif type(holder).__name__ == "JsLoader":
                holder.jsproxy = None
            else:
                attributes = getattr(holder, "__dict__", None)
                if isinstance(attributes, dict):
                    for key in [k for k, v in attributes.items() if is_bridge(v)]:
                        setattr(holder, key, None)
        except BaseException:
            pass
    bridges.clear()
    gc.collect()

def _lock_down(blocked):
    class RefuseBridges:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name.split(".")[0] in blocked:
                raise ImportError("module " + repr(name) + " is not available in the sandbox")
            return None
    # The import hook holds JavaScript's global object and Pyodide's API for "import js" and
    # "import pyodide_js", and so do the loaders it made for them (JsLoader.jsproxy) and the two
    # modules, which are those very objects: every reference a Python object holds to them is
    # dropped, so that neither sys.meta_path, nor gc.get_objects(), nor a class found through
    # __subclasses__ leads there. What gc finds afterwards is checked by sandbox.test.ts.
    bridges = [sys.modules[name] for name in ("js", "pyodide_js") if name in sys.modules]
    for finder in list(sys.meta_path) + [getattr(m, "jsfinder", None) for m in list(sys.modules.values())]:
        if isinstance(getattr(finder, "jsproxies", None), dict):
            bridges.extend(finder.jsproxies.values())
            finder.jsproxies.clear()
    for name in list(sys.modules):
        if name.split(".")[0] in blocked:
            del sys.modules[name]
    _drop_references(bridges)
    # Emscripten's default environment (USER, HOME, the program's name as _): none of it.
    os.environ.clear()
    import posix
    posix.environ.clear()
    sys.meta_path.insert(0, RefuseBridges())
    def refuse(*args, **kwargs):
        raise PermissionError("processes cannot be started in the sandbox")
    for module in (os, posix):
        for name in ("system", "popen", "fork", "forkpty", "kill", "killpg", "posix_spawn", "posix_spawnp",
                     "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe",
                     "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe"):
            if hasattr(module, name):
                setattr(module, name, refuse)
    # The in-memory file system is the interpreter's own, never the host's; read-only all the same,
    # so that writing a file fails as it would in a locked-down process. The child then makes
    # chmod refuse (sandbox-child.ts), so that these modes stay.
    for folder, subfolders, files in os.walk("/"):
        if folder == "/":
            subfolders[:] = [d for d in subfolders if d not in ("dev", "proc")]
        for name in files:
            try:
                os.chmod(os.path.join(folder, name), 0o444)
            except OSError:
                pass
        try:
            os.chmod(folder, 0o555)
        except OSError:
            pass
`;
