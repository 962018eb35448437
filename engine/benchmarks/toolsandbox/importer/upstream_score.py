"""Scores our trajectories with a ToolSandbox checkout's own evaluation.

Run by `toolsandbox eval --against-upstream` and `npm run conformance:evaluation` with the
checkout on PYTHONPATH:

    python upstream_score.py --now 1768496400 --timezone America/Los_Angeles < runs.json

stdin: a list of {"id", "scenario", "sandbox": [message rows], "tables": {TABLE: [{"index", "rows"}]}},
our runs converted to upstream's shapes (roles in upper case, tool traces as JSON text, one world
snapshot per message index that changed a table). Each run is loaded into an ExecutionContext and
scored by the scenario's own Evaluation (the scenario loaded from the checkout under the same
frozen clock as the import). stdout: a list of {"id", "milestone_similarity",
"minefield_similarity", "milestone_mapping"} or {"id", "error"}.

Bridges, in memory only (the checkout is never edited), each named on stderr:
- the exporter's: a frozen clock, polars 1.x enums, stand-ins for modules scoring never calls;
- polars 1.x refuses Python floats in `map_rows(..., return_dtype=pl.Float32)`: computed as
  Float64, then cast to Float32 as upstream asked;
- polars 1.x `DataFrame.drop` raises on a missing column, where 0.20 ignored it;
- `rouge_score` when missing: an equivalent written for this project (ROUGE-L F-measure over
  rouge_score's tokens, lower-cased, split on anything but [a-z0-9], Porter-stemmed when longer
  than 3 characters with nltk's stemmer, as rouge_score does).
"""

import json
import os
import re
import sys
import types

# exporter.py ships beside this file (in the source tree and in dist/toolsandbox-importer/).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import exporter  # noqa: E402  (ours: clock, polars and stand-in bridges)


def note(message):
    sys.stderr.write(f"upstream_score: {message}\n")


def rouge_equivalent():
    """A `rouge_score.rouge_scorer` module with RougeScorer(["rougeL"], use_stemmer=True)."""
    try:
        from rouge_score import rouge_scorer  # noqa: F401

        return
    except ImportError:
        pass
    from nltk.stem import porter

    stemmer = porter.PorterStemmer()

    def tokens(text):
        words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
        words = [stemmer.stem(w) if len(w) > 3 else w for w in words]
        return [w for w in words if re.match(r"^[a-z0-9]+$", w)]

    def lcs(a, b):
        row = [0] * (len(b) + 1)
        for x in a:
            prev = 0
            for j, y in enumerate(b, 1):
                prev, row[j] = row[j], prev + 1 if x == y else max(row[j], row[j - 1])
        return row[-1]

    class Score(tuple):
        precision = property(lambda s: s[0])
        recall = property(lambda s: s[1])
        fmeasure = property(lambda s: s[2])

    class RougeScorer:
        def __init__(self, types_, use_stemmer=False):
            self.types = types_

        def score(self, target, prediction):
            t, p = tokens(target), tokens(prediction)
            if not t or not p:
                return {"rougeL": Score((0.0, 0.0, 0.0))}
            common = lcs(t, p)
            precision, recall = common / len(p), common / len(t)
            f = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
            return {"rougeL": Score((precision, recall, f))}

    package = types.ModuleType("rouge_score")
    module = types.ModuleType("rouge_score.rouge_scorer")
    module.RougeScorer = RougeScorer
    package.rouge_scorer = module
    package.__path__ = []
    sys.modules["rouge_score"] = package
    sys.modules["rouge_score.rouge_scorer"] = module
    note("rouge_score is not installed; an equivalent ROUGE-L written for this project is used")


def bridge_float32():
    import polars as pl

    original = pl.DataFrame.map_rows

    def map_rows(self, function, return_dtype=None, **kwargs):
        if return_dtype == pl.Float32:
            frame = original(self, lambda row: float(function(row)), return_dtype=pl.Float64, **kwargs)
            return frame.with_columns(pl.col("map").cast(pl.Float32))
        return original(self, function, return_dtype=return_dtype, **kwargs)

    pl.DataFrame.map_rows = map_rows
    note("polars DataFrame.map_rows: Float32 results computed as Float64, then cast")

    # polars 1.0 made drop() raise on a column that is not there; 0.20, which upstream pins, ignored it.
    original_drop = pl.DataFrame.drop

    def drop(self, *columns, strict=False):
        return original_drop(self, *columns, strict=strict)

    pl.DataFrame.drop = drop
    note("polars DataFrame.drop: a missing column is ignored, as in polars 0.20")


def build_context(run, ExecutionContext, DatabaseNamespace):
    import polars as pl

    context = ExecutionContext()
    schemas = ExecutionContext.dbs_schemas
    for namespace in DatabaseNamespace:
        schema = schemas[namespace]
        headguard = {k: (0 if k == "sandbox_message_index" else None) for k in schema}
        if str(namespace) == "SANDBOX":
            rows = [headguard] + [{k: row.get(k) for k in schema} for row in run["sandbox"]]
        else:
            rows = [headguard]
            for snapshot in run["tables"].get(str(namespace), []):
                rows += [{**{k: row.get(k) for k in schema}, "sandbox_message_index": snapshot["index"]} for row in snapshot["rows"]]
        context._dbs[namespace] = pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)
    return context


def main():
    exporter.start_frozen()
    rouge_equivalent()
    modules, _ = exporter.import_scenario_modules()
    bridge_float32()
    from tool_sandbox.common.execution_context import DatabaseNamespace, ExecutionContext
    from tool_sandbox.common.tool_discovery import ToolBackend

    scenarios = {}
    for module in modules:
        for name in dir(module):
            collector = getattr(module, name)
            if name.startswith("named_") and name.endswith("_scenarios") and getattr(collector, "__module__", None) == module.__name__:
                scenarios.update(collector(preferred_tool_backend=ToolBackend.DEFAULT))
    results = []
    for run in json.load(sys.stdin):
        scenario = scenarios.get(run["scenario"])
        if scenario is None:
            results.append({"id": run["id"], "error": f"no upstream scenario {run['scenario']}"})
            continue
        try:
            context = build_context(run, ExecutionContext, DatabaseNamespace)
            result = scenario.evaluation.evaluate(context, max_turn_count=scenario.max_messages)
            results.append(
                {
                    "id": run["id"],
                    "milestone_similarity": float(result.milestone_similarity),
                    "minefield_similarity": float(result.minefield_similarity),
                    "milestone_mapping": {str(k): [v[0], float(v[1])] for k, v in result.milestone_mapping.items()},
                }
            )
        except Exception as e:  # noqa: BLE001 - reported per run
            results.append({"id": run["id"], "error": f"{type(e).__name__}: {e}"})
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
