"""What a ToolSandbox checkout shows the models, for every scenario it names (the 129 base ones and
their tool-augmentation variants): the agent's tool schemas, the user simulator's tool schemas, and
the system messages.

Run by scripts/conformance-prompts/compare.ts with the checkout on PYTHONPATH:

    python upstream_prompts.py --now 1768496400 --timezone America/Los_Angeles

stdout: {name: {"agent_tools": [schemas], "user_tools": [schemas], "agent_system": [texts],
"user_system": [texts]}}, each schema as upstream's convert_to_openai_tools makes it for the
roles' available tools, with the scenario's starting context made current.

Bridges, in memory only (the checkout is never edited), each named on stderr: the exporter's.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "engine", "benchmarks", "toolsandbox", "importer")))

import exporter  # noqa: E402  (ours: clock, polars and stand-in bridges)

def main():
    exporter.start_frozen()
    exporter.import_scenario_modules()
    from tool_sandbox.common.execution_context import DatabaseNamespace, RoleType, set_current_context
    from tool_sandbox.common.tool_conversion import convert_to_openai_tools
    from tool_sandbox.common.tool_discovery import ToolBackend

    def role_tools(context, role):
        tools = context.get_available_tools(scrambling_allowed=role == RoleType.AGENT)
        visible = {n: t for n, t in tools.items() if role in getattr(t, "visible_to", (RoleType.AGENT,))}
        return convert_to_openai_tools(visible)

    from tool_sandbox.scenarios import named_scenarios

    out = {}
    # Every named scenario: the 129 base ones and their tool-augmentation variants, as upstream runs them.
    for name, scenario in sorted(named_scenarios(preferred_tool_backend=ToolBackend.DEFAULT).items()):
        context = scenario.starting_context
        set_current_context(context)
        sandbox = context.get_database(DatabaseNamespace.SANDBOX, get_all_history_snapshots=True).to_dicts()
        system = lambda recipient: [str(r["content"]) for r in sandbox if str(r["sender"]) == "SYSTEM" and str(r["recipient"]) == recipient]  # noqa: E731
        out[name] = {
            "agent_tools": role_tools(context, RoleType.AGENT),
            "user_tools": role_tools(context, RoleType.USER),
            "agent_system": system("AGENT"),
            "user_system": system("USER"),
        }
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
