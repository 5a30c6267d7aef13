"""The ``Fact`` model and the one column list of the ``facts`` table, derived from it.

``COLUMNS`` follows the field order of ``Fact``; reading a row (``Fact.from_row``) and writing
one (``row_of``) go through it, so a column is named in exactly one place besides the
migrations that created the table (``memory.vault.file``; a test checks the two agree).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from datetime import datetime
from typing import Any, Literal, get_type_hints

from engine.result import Triple
from memory.clock import from_naive_utc, naive_utc

Source = Literal["stated", "reviewed"]


@dataclass(frozen=True)
class Fact:
    """One row of the vault: a triple valid from ``t_start`` until ``t_end`` (None: current)."""

    id: int
    subj: str
    rel: str
    obj: str
    key: str
    """The functional key of ``obj`` ("hba1c" for "HbA1c 7.5%"); '' for unkeyed relations."""
    subj_name: str | None
    obj_name: str | None
    first_seen: datetime
    last_used: datetime
    usage_count: int
    quality: float
    t_start: datetime
    t_end: datetime | None
    replaced_by: int | None
    evidence: str | None
    source: str
    session: str | None
    detail: str | None = None
    """How the value holds, as stated: a medication's dose, route and frequency ("5 mg twice
    daily"); None when the statement gave none."""

    @property
    def triple(self) -> Triple:
        return (self.subj, self.rel, self.obj)

    @property
    def current(self) -> bool:
        return self.t_end is None

    @classmethod
    def from_row(cls, row: tuple[Any, ...] | list[Any]) -> Fact:
        """A fact from a ``SELECT {SELECT_LIST}`` row (DuckDB's naive UTC timestamps)."""
        return cls(*(_READ[name](value) for name, value in zip(COLUMNS, row, strict=True)))


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Fact))
SELECT_LIST = ", ".join(COLUMNS)
INSERT = (
    f"INSERT INTO facts ({SELECT_LIST}) VALUES (nextval('fact_id_seq'), "
    + ", ".join("?" for _ in COLUMNS[1:])
    + ") RETURNING id"
)
"""Inserts ``row_of(fact)``; the id comes from the sequence."""


def row_of(fact: Fact) -> list[Any]:
    """The values of every column but ``id``, in ``COLUMNS`` order, as DuckDB stores them."""
    return [naive_utc(v) if isinstance(v, datetime) else v for v in astuple(fact)[1:]]


def _reader(hint: Any) -> Any:
    """How a column's stored value becomes the field's type (None stays None)."""
    text = str(hint)
    if "datetime" in text:
        return lambda v: from_naive_utc(v) if v is not None else None
    if "int" in text:
        return lambda v: int(v) if v is not None else None
    if "float" in text:
        return lambda v: float(v) if v is not None else None
    return lambda v: v


_READ = {name: _reader(hint) for name, hint in get_type_hints(Fact).items()}


@dataclass(frozen=True)
class StoreOutcome:
    fact: Fact | None
    created: bool
    superseded: tuple[Fact, ...] = ()
