"""Memory fact rows and memory notes, read the same way whatever shape the memory returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from helix_tui.relations import short_id, verb

_FIELDS = (
    "subj",
    "rel",
    "obj",
    "t_start",
    "t_end",
    "quality",
    "subj_name",
    "obj_name",
    "source",
    "detail",
)


@dataclass(frozen=True)
class FactView:
    subj: str
    rel: str
    obj: str
    t_start: datetime | str | None = None
    t_end: datetime | str | None = None
    quality: float | None = None
    subj_name: str | None = None
    obj_name: str | None = None
    source: str | None = None
    """Where the fact came from: 'stated' by the user, 'reviewed' KG evidence, ..."""
    detail: str | None = None
    """How the value holds as stated (a dose: "5 mg twice daily")."""
    raw: object = field(default=None, compare=False, repr=False)
    """The row as the memory returned it (handed back to ``UserMemory.forget``)."""

    @property
    def current(self) -> bool:
        return self.t_end is None

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.subj, self.rel, self.obj)

    @classmethod
    def of(cls, row: object) -> FactView:
        """From an attribute row, a mapping, or a sequence in (subj, rel, obj, ...) order."""
        values = _fields(row)
        quality = values.get("quality")
        return cls(
            subj=str(values.get("subj", "")),
            rel=str(values.get("rel", "")),
            obj=str(values.get("obj", "")),
            t_start=_instant(values.get("t_start")),
            t_end=_instant(values.get("t_end")),
            quality=float(quality) if isinstance(quality, int | float) else None,
            subj_name=_text(values.get("subj_name")),
            obj_name=_text(values.get("obj_name")),
            source=_text(values.get("source")),
            detail=_text(values.get("detail")),
            raw=row,
        )


def _fields(row: object) -> dict[str, Any]:
    if isinstance(row, FactView):
        return {f: getattr(row, f) for f in _FIELDS}
    if isinstance(row, Mapping):
        return {f: row.get(f) for f in _FIELDS}
    if all(hasattr(row, f) for f in _FIELDS[:3]):
        return {f: getattr(row, f, None) for f in _FIELDS}
    if isinstance(row, Sequence) and not isinstance(row, str):
        return dict(zip(_FIELDS, row, strict=False))
    return {"subj": str(row)}


def _text(value: object) -> str | None:
    return str(value) if value else None


def _instant(value: object) -> datetime | str | None:
    if value is None or isinstance(value, datetime):
        return value
    return str(value)


def day(value: datetime | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d")
    return value[:10]


def notes_of(stated: object) -> list[str]:
    """Human lines for what ``UserMemory.state`` captured (nothing when it captured nothing)."""
    if stated is None or stated is False or stated is True:
        return []
    if isinstance(stated, str):
        return [stated] if stated.strip() else []
    items: Sequence[object]
    if isinstance(stated, Sequence):
        items = stated
    elif isinstance(stated, Mapping):
        items = [stated]
    else:
        facts = getattr(stated, "facts", None)
        items = facts if isinstance(facts, Sequence) and not isinstance(facts, str) else [stated]
    return [_note(item) for item in items if item is not None]


def _note(item: object) -> str:
    if isinstance(item, str):
        return item
    view = FactView.of(item)
    if view.rel:
        subj = view.subj_name or short_id(view.subj)
        obj = view.obj_name or short_id(view.obj)
        return f"{subj} {verb(view.rel)} {obj}" + (f" {view.detail}" if view.detail else "")
    return str(item)
