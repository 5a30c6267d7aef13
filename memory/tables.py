"""Results laid out for several patients at once, read as one statement per patient. Pure.

A clinician pastes a grid ("pt  k  cr" over rows "7720  5.4  305") or heads a line with a test
and lists each patient's value after it ("crps: bed 4 (88120) 22, bed 12 (60417) 5"). Each
becomes a sentence of its own in the form a single patient's results take ("7720 k 5.4 cr
305."), so every value goes to the patient of its row. Tests are known by the measurement
names the relations know (``RelationCatalog.measurement_keys``); nothing else is rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Container

from engine.util.text import alias_key

_ROW_SUBJECT = frozenset({"pt", "pts", "patient", "patients", "mrn", "id", "bed", "name"})
"""Words a grid's first column may be headed by."""
_NUMBER = re.compile(r"^[<>~]?\d+(?:\.\d+)?$")
_PATIENT = re.compile(r"^(?:mrn\s*)?\d{3,10}$", re.IGNORECASE)
_HEADED = re.compile(r"^\s*(?P<test>[A-Za-z][\w-]*)\s*:\s*(?P<rest>.+)$")
_ITEM_VALUE = re.compile(r"^(?P<who>.*\S)\s+(?P<value>[<>~]?\d+(?:\.\d+)?)\s*$")


def as_statements(text: str, tests: Container[str]) -> str:
    """``text`` with a grid of results, or a test's values listed by patient, written as one
    sentence per patient; ``text`` as it is when it holds neither."""
    lines = text.split("\n")
    out = _grid(lines, tests)
    if out is None:
        out = _rows_by_patient([_headed(line, tests) or line for line in lines])
    return "\n".join(out)


_LED_BY_PATIENT = re.compile(
    r"^\s*(?:(?:pt|patient|mrn|bed)\s*)?\d{2,10}\b\s*:?\s+\S", re.IGNORECASE
)
"""A line that opens with the patient it is about ("pt 812 k 5.2", "9034: na 141 k 3.9")."""


def _rows_by_patient(lines: list[str]) -> list[str]:
    """Lines each led by a patient, two or more of them, each ended as a sentence of its own
    ("pt 812 k 5.2 cr 310" over "pt 9034 k 4.1 cr 188"), so no line's values run into the
    patient of the line before; other lines as they are."""
    led = [i for i, line in enumerate(lines) if _LED_BY_PATIENT.match(line)]
    if len(led) < 2:
        return lines
    return [
        f"{line.rstrip()}." if i in led and not re.search(r"[.;!?]\s*$", line) else line
        for i, line in enumerate(lines)
    ]


def _grid(lines: list[str], tests: Container[str]) -> list[str] | None:
    """The lines with a grid's rows as sentences, or None when no line heads a grid: a first
    column named for the patient, then two or more known tests; each row under it a patient's
    number and one value per test."""
    for at, line in enumerate(lines):
        head = line.split()
        if (
            len(head) < 3
            or head[0].lower() not in _ROW_SUBJECT
            or not all(alias_key(h) in tests for h in head[1:])
        ):
            continue
        rows = []
        for row in lines[at + 1 :]:
            cells = row.split()
            if not (
                len(cells) == len(head)
                and _PATIENT.match(cells[0])
                and all(_NUMBER.match(c) for c in cells[1:])
            ):
                break  # the grid ends where a line is no patient's row
            said = " ".join(f"{t} {v}" for t, v in zip(head[1:], cells[1:], strict=True))
            rows.append(f"{cells[0]} {said}.")
        if not rows:
            return None
        return [*lines[:at], *rows, *lines[at + 1 + len(rows) :]]
    return None


def _headed(line: str, tests: Container[str]) -> str | None:
    """A line headed by a known test whose items each end in a value ("crps: bed 4 (88120)
    22, bed 12 (60417) 5"), as one sentence per item ("bed 4 (88120) crp 22."); None
    otherwise."""
    m = _HEADED.match(line)
    if m is None:
        return None
    said_as = m.group("test")
    # the test as written, else its plural's singular ("crps": crp)
    test = next((t for t in (said_as, said_as[:-1]) if alias_key(t) in tests), None)
    if test is None or not test:
        return None
    items = [i.strip() for i in m.group("rest").split(",") if i.strip()]
    said = [_ITEM_VALUE.match(i) for i in items]
    if len(items) < 2 or not all(said):
        return None
    return " ".join(f"{s.group('who')} {test} {s.group('value')}." for s in said if s)
