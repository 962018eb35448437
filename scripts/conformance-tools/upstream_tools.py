"""Runs a battery of tool calls through a ToolSandbox checkout's own tools.

Run by scripts/conformance-tools/compare.ts with the checkout on PYTHONPATH:

    python upstream_tools.py --now 1768496400 --timezone America/Los_Angeles < cases.json

stdin: a list of {"id", "tool", "arguments", "settings"}; `settings` replaces columns of the
SETTING row before the call (a state dependency broken on purpose). Each call starts from a fresh
copy of upstream's base scenario world, under the frozen clock the importer uses, with uuid4
counting 1, 2, 3... as our test context does. stdout: {"world": {TABLE: rows}, "results": [{"id",
"text", "tables"}]}, where `text` is what upstream's execution environment shows the agent (the
repr of the result, or the last line of the traceback) and `tables` every non-SANDBOX table after
the call. `versions` names the installed version of each library the tools call, beside the
checkout's pin when they differ.

Bridges, in memory only (the checkout is never edited), each named on stderr: the exporter's
frozen clock, polars 1.x enums and stand-ins for modules the tools never call.
"""

import copy
import json
import os
import sys
import traceback
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "engine", "benchmarks", "toolsandbox", "importer")))

import exporter  # noqa: E402  (ours: clock, polars and stand-in bridges)


class CountingUuid:
    """uuid4 replaced by a counter, reset before each call, so new rows have comparable ids."""

    def __init__(self):
        self.issued = 0

    def __call__(self):
        self.issued += 1
        return uuid.UUID(f"00000000-0000-4000-8000-{self.issued:012d}")


def table_rows(frame):
    return [{k: exporter.plain(v) for k, v in row.items()} for row in frame.to_dicts()]


def library_versions():
    """The installed version of each library the offline tools call, with the checkout's pin."""
    from importlib import metadata

    pins = {}
    pyproject = os.path.join(os.environ.get("PYTHONPATH", "").split(os.pathsep)[0], "pyproject.toml")
    if os.path.exists(pyproject):
        with open(pyproject, encoding="utf-8") as f:
            for line in f:
                line = line.strip().strip('",')
                if "==" in line:
                    name, _, version = line.partition("==")
                    pins[name.strip().lower()] = version.strip()
    out = {}
    for name in ("polars", "rapidfuzz", "holidays", "pint", "geopy", "geographiclib", "phonenumbers"):
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        pin = pins.get(name)
        out[name] = installed if pin is None or pin == installed else f"{installed} (upstream pins {pin})"
    return out


def main():
    exporter.start_frozen()
    counter = CountingUuid()
    uuid.uuid4 = counter
    sys.meta_path.append(exporter.StandInFinder())

    import polars as pl

    import tool_sandbox.tools
    from tool_sandbox.common.execution_context import DatabaseNamespace, set_current_context
    from tool_sandbox.common.tool_discovery import ToolBackend, find_tools_by_module
    from tool_sandbox.scenarios.base_scenarios import named_base_scenarios

    tools = find_tools_by_module(tool_sandbox.tools, preferred_tool_backend=ToolBackend.DEFAULT)
    base = named_base_scenarios(preferred_tool_backend=ToolBackend.DEFAULT)["base"].starting_context
    namespaces = [ns for ns in DatabaseNamespace if str(ns) != "SANDBOX"]

    def tables(context):
        return {str(ns): table_rows(context.get_database(ns)) for ns in namespaces}

    results = []
    for case in json.load(sys.stdin):
        context = copy.deepcopy(base)
        set_current_context(context)
        if case.get("settings"):
            setting = context.get_database(DatabaseNamespace.SETTING)
            setting = setting.with_columns([pl.lit(v).cast(setting.schema[k]).alias(k) for k, v in case["settings"].items()])
            context.update_database(DatabaseNamespace.SETTING, setting)
        counter.issued = 0
        tool = tools.get(case["tool"])
        if tool is None:
            results.append({"id": case["id"], "text": f"(no upstream tool {case['tool']})", "tables": tables(context)})
            continue
        try:
            text = repr(tool(**case["arguments"]))
        except Exception as e:  # noqa: BLE001 - what the agent sees is the last traceback line
            # Upstream's console prints the traceback to stderr and the agent sees its last line.
            text = "".join(traceback.format_exception_only(type(e), e)).rstrip().split("\n")[-1]
        results.append({"id": case["id"], "text": text, "tables": tables(context)})
    json.dump({"world": tables(base), "versions": library_versions(), "results": results}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
