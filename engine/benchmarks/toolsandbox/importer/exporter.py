"""Writes a ToolSandbox checkout's base scenarios as neutral JSON on stdout.

Run by `toolsandbox import toolsandbox` with the checkout on PYTHONPATH:

    python exporter.py --now 1768496400 --timezone America/Los_Angeles

The clock is frozen at --now before anything of the checkout is imported, so every
`datetime.now()` the scenario definitions evaluate ("tomorrow", "3 days ago") is exact relative
to the scenario clock the TypeScript converter writes. Only the four named-scenario collections
are read: the tool-augmentation variants are re-derived by `run --augment`.

Nothing here is upstream code; the script only reads upstream's objects. Incompatibilities of
newer libraries (polars 1.x) are bridged in memory, and modules the export never calls are stood
in for when missing, each named on stderr.
"""

import argparse
import json
import os
import sys
import time
import types


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(2)


def freeze_clock(now, timezone):
    """Makes time.time() and datetime.now() return `now` in `timezone` from here on."""
    # Upstream's naive datetimes are read in the process's local zone, so the zone must be set too.
    if not hasattr(time, "tzset"):
        fail("exporter: this Python cannot change its local timezone (time.tzset is POSIX only); run the import on Linux or macOS")
    os.environ["TZ"] = timezone
    time.tzset()
    import datetime as datetime_module

    real = datetime_module.datetime

    class FrozenDatetime(real):
        @classmethod
        def now(cls, tz=None):
            return real.fromtimestamp(now, tz)

        @classmethod
        def today(cls):
            return real.fromtimestamp(now)

    datetime_module.datetime = FrozenDatetime
    time.time = lambda: float(now)


def bridge_polars():
    """polars 1.x refuses enum members as Enum categories; upstream passes its RoleType members."""
    try:
        import polars
    except ImportError:
        return
    original = polars.Enum

    def enum_of_strings(categories=None):
        if categories is not None and not isinstance(categories, polars.Series):
            categories = [str(c) for c in categories]
        return original(categories)

    # Only the name upstream calls is replaced; polars' own isinstance checks keep the class.
    polars.Enum = enum_of_strings


# Packages upstream imports at load time whose functions exporting never calls.
STAND_IN_PACKAGES = ("rouge_score", "ccy", "langchain_core", "openai")


class StandInFinder:
    """Last on sys.meta_path: a missing module of a STAND_IN_PACKAGES package becomes an empty
    module whose every attribute is a stand-in class, so upstream's imports and class
    definitions load. Installed packages are found first and used as they are."""

    def __init__(self):
        self.named = set()

    def find_spec(self, fullname, path=None, target=None):
        import importlib.machinery

        top = fullname.split(".")[0]
        if top not in STAND_IN_PACKAGES:
            return None
        if top not in self.named:
            self.named.add(top)
            sys.stderr.write(f"exporter: a stand-in is used for {top} (not importable here; exporting never calls it)\n")
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []
        module.__getattr__ = lambda attr: type(attr, (), {"__init__": lambda self, *a, **k: None})
        return module

    def exec_module(self, module):
        pass


def import_scenario_modules():
    sys.meta_path.append(StandInFinder())
    try:
        import tool_sandbox.scenarios.insufficient_information_scenarios as insufficient
        import tool_sandbox.scenarios.multiple_tool_call_scenarios as multiple_tool
        import tool_sandbox.scenarios.multiple_user_turn_scenarios as multiple_user
        import tool_sandbox.scenarios.single_tool_call_scenarios as single_tool
        import tool_sandbox.scenarios.user_simulator_few_shot_examples as few_shot
    except Exception as e:  # noqa: BLE001 - one line for the user, whatever broke
        fail(f"exporter: the ToolSandbox checkout cannot be imported on this Python ({sys.version.split()[0]}): {type(e).__name__}: {e}")
    return [single_tool, multiple_tool, multiple_user, insufficient], few_shot


def plain(value):
    """JSON-ready copy of a cell: enum members become their values, nested lists follow."""
    if value is None or isinstance(value, (bool, int, float)):
        if isinstance(value, float) and value != value:
            return None
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return {"float": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "to_list"):
        return [plain(v) for v in value.to_list()]
    return str(value)


def rows(frame):
    if frame is None:
        return None
    return [{k: plain(v) for k, v in row.items()} for row in frame.to_dicts()]


def callable_spec(fn):
    """A similarity or extractor function as {name, arguments}: partials keep their keywords."""
    arguments = {}
    while hasattr(fn, "func") and hasattr(fn, "keywords"):
        for key, value in fn.keywords.items():
            arguments.setdefault(key, value)
        if fn.args:
            arguments.setdefault("__positional__", list(fn.args))
        fn = fn.func
    spec = {"name": getattr(fn, "__name__", str(fn))}
    out = {}
    for key, value in arguments.items():
        out[key] = callable_spec(value) if callable(value) else plain(value)
    if out:
        spec["arguments"] = out
    return spec


def export_constraint(constraint, defaults):
    namespace = str(constraint.database_namespace)
    measures = {}
    default_measures = defaults.get(constraint.database_namespace, {})
    for column, fn in (constraint.column_similarity_measure or {}).items():
        if default_measures.get(column) is fn:
            continue
        measures[column] = callable_spec(fn)
    return {
        "table": namespace,
        "similarity": callable_spec(constraint.snapshot_constraint),
        "reference_index": constraint.reference_milestone_node_index,
        "target": rows(constraint.target_dataframe),
        "measures": measures,
    }


def export_matcher(matcher, defaults, guardrail_similarity):
    nodes = []
    for milestone in matcher.milestones:
        nodes.append(
            {
                # The guardrails upstream derives from the graph are derived again by our evaluation.
                "constraints": [
                    export_constraint(c, defaults)
                    for c in milestone.snapshot_constraints
                    if c.snapshot_constraint is not guardrail_similarity
                ],
                "guardrail_tables": [str(t) for t in (milestone.guardrail_database_list or [])],
                "guardrail_exclusion": None
                if milestone.guardrail_database_exclusion_list is None
                else [str(t) for t in milestone.guardrail_database_exclusion_list],
            }
        )
    edges = getattr(matcher, "edge_list", None)
    return {"nodes": nodes, "edges": None if edges is None else [list(e) for e in edges]}


def export_scenario(name, scenario, defaults, guardrail_similarity):
    context = scenario.starting_context
    tables = {}
    for namespace in context.dbs_schemas:
        # The message bus keeps one row per message; the world tables their latest snapshot.
        history = str(namespace) == "SANDBOX"
        frame = context.get_database(namespace=namespace, get_all_history_snapshots=history)
        tables[str(namespace)] = rows(frame)
    return {
        "name": name,
        "categories": [str(c) for c in scenario.categories],
        "max_messages": scenario.max_messages,
        "tool_allow_list": None if context.tool_allow_list is None else list(context.tool_allow_list),
        "tool_deny_list": None if context.tool_deny_list is None else list(context.tool_deny_list),
        "tables": tables,
        "milestones": export_matcher(scenario.evaluation.milestone_matcher, defaults, guardrail_similarity),
        "minefields": export_matcher(scenario.evaluation.minefield_matcher, defaults, guardrail_similarity),
    }


def demonstration_names(few_shot):
    """Each few-shot dialogue's name, keyed by the text of its first message."""
    collect = getattr(few_shot, "named_user_simulator_few_shot_examples", None)
    if collect is None:
        return {}
    return {name: str(messages[0]["content"]) for name, messages in collect().items() if messages}


def demonstrations(few_shot):
    """Each few-shot dialogue in full: its rows as {sender, recipient, content}, in order."""
    collect = getattr(few_shot, "named_user_simulator_few_shot_examples", None)
    if collect is None:
        return {}
    out = {}
    for name, messages in collect().items():
        out[name] = [
            {"sender": str(m.get("sender")), "recipient": str(m.get("recipient")), "content": str(m.get("content", ""))}
            for m in messages
        ]
    return out


def tool_docstrings(backend):
    """Every tool's docstring as upstream's schema conversion reads it (inspect.getdoc)."""
    import inspect

    try:
        import tool_sandbox.tools as tools_package
        from tool_sandbox.common.tool_discovery import find_tools_by_module
    except ImportError:
        sys.stderr.write("exporter: the checkout has no tool_sandbox.tools; the prompt set gets no tool descriptions\n")
        return {}
    tools = find_tools_by_module(tools_package, preferred_tool_backend=backend)
    return {name: inspect.getdoc(fn) or "" for name, fn in tools.items()}


def start_frozen():
    """The command line every script of ours that runs a checkout takes (--now, --timezone): the
    clock frozen there and polars bridged, before anything of the checkout is imported."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--now", type=float, required=True)
    parser.add_argument("--timezone", required=True)
    args = parser.parse_args()
    freeze_clock(args.now, args.timezone)
    bridge_polars()
    return args


def main():
    args = start_frozen()
    modules, few_shot = import_scenario_modules()
    from tool_sandbox.common import evaluation
    from tool_sandbox.common.tool_discovery import ToolBackend

    defaults = evaluation._default_dbs_column_similarities
    backend = ToolBackend.DEFAULT
    scenarios = {}
    collectors = [
        (getattr(module, name), name)
        for module in modules
        for name in dir(module)
        if name.startswith("named_") and name.endswith("_scenarios") and name != "named_base_scenarios"
        and getattr(getattr(module, name), "__module__", None) == module.__name__
    ]
    for collector, _ in collectors:
        for name, scenario in collector(preferred_tool_backend=backend).items():
            scenarios[name] = export_scenario(name, scenario, defaults, evaluation.guardrail_similarity)
    json.dump(
        {
            "clock": {"now": args.now, "timezone": args.timezone},
            "user_instruction": getattr(few_shot, "USER_INSTRUCTION", None),
            "demonstration_names": demonstration_names(few_shot),
            "demonstrations": demonstrations(few_shot),
            "tool_docstrings": tool_docstrings(backend),
            "scenarios": [scenarios[name] for name in sorted(scenarios)],
        },
        sys.stdout,
        ensure_ascii=False,
        sort_keys=True,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
