"""The evaluation harness: run benchmark files through an engine and score the results.

Typical use (the ``helix-chat eval`` command)::

    questions = [q for path in benches for q in load_questions(path)]
    results = run_eval(helix, questions, mode="hybrid", out_path="runs/dev.jsonl")
    console.print(render_report({"hybrid": score(questions, results)}))
"""

from engine.eval.metrics import KIND_METRICS, Metric, QuestionScore, score_question
from engine.eval.render import (
    AblationRow,
    ablation_rows,
    ablation_table,
    metrics_table,
    render_report,
    stage_table,
)
from engine.eval.report import Aggregate, EvalReport, StageLatency, aggregate, score
from engine.eval.runner import (
    AskEngine,
    BenchFileError,
    Progress,
    QuestionInput,
    load_questions,
    load_results,
    out_path_for,
    run_eval,
    score_file,
)

__all__ = [
    "KIND_METRICS",
    "AblationRow",
    "Aggregate",
    "AskEngine",
    "BenchFileError",
    "EvalReport",
    "Metric",
    "Progress",
    "QuestionInput",
    "QuestionScore",
    "StageLatency",
    "ablation_rows",
    "ablation_table",
    "aggregate",
    "load_questions",
    "load_results",
    "metrics_table",
    "out_path_for",
    "render_report",
    "run_eval",
    "score",
    "score_file",
    "score_question",
    "stage_table",
]
