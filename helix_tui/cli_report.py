"""Gathering what ``helix-chat eval --report DIR`` draws beyond the scored modes: the edge
predictor's calibration samples and a memory replay's Recall@1 by day."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.config import Settings
from engine.eval.report import EvalReport
from engine.eval.report_data import DayRecall, Reliability, ReportData, memory_by_day

if TYPE_CHECKING:
    from memory.replay.run import ReplayReport


def reliability_of(
    helix: object, settings: Settings, gold: Sequence[dict[str, Any]]
) -> Reliability | None:
    """Top-relation probabilities of the local edge predictor on ``gold``, with the store's
    temperature (or one fitted on these samples when the store has none)."""
    from engine.eval.calibration import fit, samples
    from engine.graph.edges import Calibration

    planner = getattr(getattr(helix, "c", None), "planner", None)
    if planner is None:
        return None
    probs, labels = samples(planner, gold)
    if not probs:
        return None
    stored = settings.stores_dir / "calibration.json"
    if stored.exists():
        return Reliability(tuple(probs), tuple(labels), Calibration.load(stored).temperature)
    return Reliability(tuple(probs), tuple(labels), fit(probs, labels).temperature, "fitted")


def replay_days(
    helix: Any, settings: Settings, replay: Path, directory: Path
) -> tuple[ReplayReport, list[DayRecall]]:
    """Play ``replay`` in a throwaway home (its lines kept in ``directory``): its report and
    Memory Recall@1 by day."""
    from memory.replay.run import run_replay
    from wiring.open import memory_opener

    out = directory / "replay_results.jsonl"
    with tempfile.TemporaryDirectory(prefix="helix-report-replay-") as scratch:
        report = run_replay(
            replay,
            settings.model_copy(update={"home": Path(scratch)}),
            open_memory=memory_opener(helix),
            out_path=out,
        )
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines() if x.strip()]
    return report, memory_by_day(lines)


def write_report(
    directory: Path,
    gold: Sequence[dict[str, Any]],
    reports: Mapping[str, EvalReport],
    results: Mapping[str, list[dict[str, Any]]],
    *,
    reliability: Reliability | None,
    days: list[DayRecall],
    inputs: list[str],
) -> list[Path]:
    """The result lines of each mode (``results.<mode>.jsonl``), the PNGs and report.html."""
    from engine.eval.html_report import build_report

    directory.mkdir(parents=True, exist_ok=True)
    for mode, rows in results.items():
        lines = (json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows)
        (directory / f"results.{mode}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = ReportData(gold, reports, reliability, days, inputs=inputs)
    return build_report(directory, data)
