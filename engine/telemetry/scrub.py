"""Dropping from a user's trace files every question that mentions what they asked to forget.

A trace's spans carry the question (``helix.question`` on the root) and what was read from it
(mentions, linked names, answers) on its steps, so a forgotten patient lives on in
``traces/spans.jsonl`` (and its rotated ``spans.1.jsonl``) unless the traces naming them go
too. A trace is dropped whole when any text value of any of its spans contains a needle (case
folded, as the session and cache stores match); identifiers, timestamps and numbers are not
searched, so forgetting "4471" does not drop a trace whose start time holds those digits.
The file is rewritten beside itself and swapped in, so a crash leaves the old or the new file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.telemetry.tracing import spans_path


def trace_files(settings: Settings, user: str) -> list[Path]:
    """``user``'s trace files: the live one and its rotated predecessor, those that exist."""
    live = spans_path(settings, user)
    return [p for p in (live, live.with_name(live.stem + ".1.jsonl")) if p.exists()]


def forget_in_traces(paths: Sequence[Path], needles: Iterable[str]) -> int:
    """Rewrite each file of ``paths`` without the traces mentioning any of ``needles``;
    returns the traces dropped. An unreadable line is kept as it is (it is not ours to
    judge), unless it is text that contains a needle. A file that cannot be read or replaced
    raises its ``OSError`` (the files before it are rewritten already)."""
    folded = [n.casefold() for n in needles if n and n.strip()]
    if not folded:
        return 0
    dropped = 0
    for path in paths:
        try:
            dropped += _forget_in(path, folded)
        except OSError as exc:  # said of the trace file, not of its temporary copy
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
    return dropped


def _forget_in(path: Path, folded: Sequence[str]) -> int:
    """``forget_in_traces`` of one file."""
    lines = path.read_text(encoding="utf-8", errors="surrogateescape").splitlines(True)
    parsed = [_parse(line) for line in lines]
    gone: set[str] = set()
    bad: set[int] = set()
    for i, (line, (trace, texts)) in enumerate(zip(lines, parsed, strict=True)):
        if trace is None and _mentions([line], folded):
            bad.add(i)
        elif trace is not None and _mentions(texts, folded):
            gone.add(trace)
    if not gone and not bad:
        return 0
    kept = [
        line
        for i, (line, (trace, _)) in enumerate(zip(lines, parsed, strict=True))
        if i not in bad and trace not in gone
    ]
    _replace(path, "".join(kept))
    return len(gone) + len(bad)


def _parse(line: str) -> tuple[str | None, list[str]]:
    """A span line's trace id and every text value in it (names, attributes, events)."""
    try:
        doc = json.loads(line)
    except ValueError:
        return None, []
    trace = next((str(s["traceId"]) for s in _spans(doc) if "traceId" in s), None)
    return trace, list(_texts(doc))


def _spans(doc: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(doc, dict):
        return
    for resource in doc.get("resourceSpans") or []:
        for scope in resource.get("scopeSpans") or []:
            yield from (s for s in scope.get("spans") or [] if isinstance(s, dict))


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("stringValue", "name") and isinstance(item, str):
                yield item
            else:
                yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def _mentions(texts: Iterable[str], folded: Sequence[str]) -> bool:
    return any(needle in text.casefold() for text in texts for needle in folded)


def _replace(path: Path, text: str) -> None:
    """``path`` replaced by ``text`` at once; when it cannot be (a full disk, a file this
    user may not replace), the ``OSError`` is raised and no partial copy is left beside it."""
    fresh = path.with_name(path.name + ".scrub")
    try:
        with fresh.open("w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        fresh.replace(path)
    except OSError:
        fresh.unlink(missing_ok=True)
        raise


__all__ = ["forget_in_traces", "trace_files"]
