"""What a ToolSandbox checkout shows the models, per scenario: the agent's tool schemas (plain and
under each scrambling augmentation), the user simulator's tool schemas, and the system messages.

Run by scripts/conformance-prompts/compare.ts with the checkout on PYTHONPATH:

    python upstream_prompts.py --now 1768496400 --timezone America/Los_Angeles

stdout: {"augmentations": [names], "scenarios": {name: {"agent_tools": {augmentation or "none":
[schemas]}, "user_tools": [schemas], "agent_system": [texts], "user_system": [texts]}}}, each
schema as upstream's convert_to_openai_tools makes it for the roles' available tools.

Bridges, in memory only (the checkout is never edited), each named on stderr: the exporter's.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "engine", "packs", "toolsandbox", "importer")))

import exporter  # noqa: E402  (ours: clock, polars and stand-in bridges)

SCRAMBLINGS = ["TOOL_NAME_SCRAMBLED", "TOOL_DESCRIPTION_SCRAMBLED", "ARG_DESCRIPTION_SCRAMBLED", "ARG_TYPE_SCRAMBLED"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--now", type=float, required=True)
    parser.add_argument("--timezone", required=True)
    args = parser.parse_args()
    exporter.freeze_clock(args.now, args.timezone)
    exporter.bridge_polars()
    modules, _ = exporter.import_scenario_modules()
    from tool_sandbox.common.execution_context import DatabaseNamespace, RoleType, ScenarioCategories, set_current_context
    from tool_sandbox.common.tool_conversion import convert_to_openai_tools
    from tool_sandbox.common.tool_discovery import ToolBackend

    def role_tools(context, role):
        tools = context.get_available_tools(scrambling_allowed=role == RoleType.AGENT)
        visible = {n: t for n, t in tools.items() if role in getattr(t, "visible_to", (RoleType.AGENT,))}
        return convert_to_openai_tools(visible)

    scenarios = {}
    for module in modules:
        for name in dir(module):
            collector = getattr(module, name)
            if name.startswith("named_") and name.endswith("_scenarios") and getattr(collector, "__module__", None) == module.__name__:
                scenarios.update(collector(preferred_tool_backend=ToolBackend.DEFAULT))
    out = {}
    for name in sorted(scenarios):
        context = scenarios[name].starting_context
        set_current_context(context)
        agent_tools = {"none": role_tools(context, RoleType.AGENT)}
        for augmentation in SCRAMBLINGS:
            context.tool_augmentation_list = [getattr(ScenarioCategories, augmentation)]
            agent_tools[augmentation] = role_tools(context, RoleType.AGENT)
        context.tool_augmentation_list = []
        sandbox = context.get_database(DatabaseNamespace.SANDBOX, get_all_history_snapshots=True).to_dicts()
        system = lambda recipient: [str(r["content"]) for r in sandbox if str(r["sender"]) == "SYSTEM" and str(r["recipient"]) == recipient]  # noqa: E731
        out[name] = {
            "agent_tools": agent_tools,
            "user_tools": role_tools(context, RoleType.USER),
            "agent_system": system("AGENT"),
            "user_system": system("USER"),
        }
    json.dump({"augmentations": SCRAMBLINGS, "scenarios": out}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
