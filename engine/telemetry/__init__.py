"""OpenTelemetry traces of the pipeline: step events -> spans -> JSONL under the data home/OTLP."""

from engine.telemetry.tracing import QuestionTrace, Tracing, spans_path

__all__ = ["QuestionTrace", "Tracing", "spans_path"]
