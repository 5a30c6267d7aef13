"""Pure temporal selection over a fact history (oldest first).

current  - valid rows, most recent first
first    - the earliest row of the chain
previous - the row valid just before the current one (the one it replaced, else the latest
           earlier row with another value); with none current, the row that ended last
before X - the row X replaced (else the latest earlier row); after X - the row that replaced X
as_of T  - rows valid at instant T
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from memory.router import Temporal
from memory.vault import Fact


def _order(f: Fact) -> tuple[datetime, int]:
    return (f.t_start, f.id)


def current(history: list[Fact]) -> list[Fact]:
    return sorted((f for f in history if f.current), key=_order, reverse=True)


def latest(history: list[Fact]) -> Fact | None:
    valid = current(history)
    if valid:
        return valid[0]
    return max(history, key=_order) if history else None


def chain_of(history: list[Fact], fact: Fact) -> list[Fact]:
    """Rows of the same functional key as ``fact`` (all rows when unkeyed)."""
    return [f for f in history if f.key == fact.key]


def before(history: list[Fact], pivot: Fact) -> Fact | None:
    replaced = [f for f in history if f.replaced_by == pivot.id]
    if replaced:
        return max(replaced, key=_order)
    earlier = [
        f for f in chain_of(history, pivot) if _order(f) < _order(pivot) and f.obj != pivot.obj
    ]
    return max(earlier, key=_order) if earlier else None


def after(history: list[Fact], pivot: Fact) -> Fact | None:
    if pivot.replaced_by is not None:
        nxt = [f for f in history if f.id == pivot.replaced_by]
        if nxt:
            return nxt[0]
    later = [f for f in chain_of(history, pivot) if _order(f) > _order(pivot)]
    return min(later, key=_order) if later else None


def as_of(history: list[Fact], instant: datetime) -> list[Fact]:
    rows = [f for f in history if f.t_start <= instant and (f.t_end is None or f.t_end > instant)]
    return sorted(rows, key=_order, reverse=True)


def select(
    history: list[Fact],
    kind: Temporal,
    *,
    anchor: Callable[[Fact], bool] | None = None,
    fallback: Temporal = Temporal.CURRENT,
    instant: datetime | None = None,
) -> list[Fact]:
    """The rows that answer a question with temporal intent ``kind``, best first."""
    if not history:
        return []
    if kind in (Temporal.BEFORE, Temporal.AFTER):
        pivots = [f for f in history if anchor is not None and anchor(f)]
        if not pivots:
            return select(history, fallback, instant=instant)
        pivot = max(pivots, key=_order)
        found = before(history, pivot) if kind == Temporal.BEFORE else after(history, pivot)
        return [found] if found else []
    if kind == Temporal.FIRST:
        top = latest(history)
        chain = chain_of(history, top) if top else history
        return [min(chain, key=_order)]
    if kind == Temporal.PREVIOUS:
        top = latest(history)
        if top is None:
            return []
        if not top.current:
            return [top]  # nothing holds now ("stopped metformin"): the value that ended last
        replaced = [f for f in history if f.replaced_by == top.id]
        if replaced:
            return [max(replaced, key=_order)]  # the latest change: what it replaced
        if all(f.key == "" for f in history) and len(current(history)) > 1:
            return current(history)[1:]  # many-valued relation: the one stated before
        found = before(history, top)
        return [found] if found else []
    if kind == Temporal.AS_OF and instant is not None:
        return as_of(history, instant)
    return current(history)


def stopped(history: list[Fact]) -> list[Fact]:
    """The values stopped last with nothing in their place ("held his spironolactone"): rows
    that ended unreplaced and whose value is not current again, those that ended last
    first. Pure."""
    now = {f.obj for f in history if f.current}
    ended = [
        f for f in history if f.t_end is not None and f.replaced_by is None and f.obj not in now
    ]
    if not ended:
        return []
    last = max(f.t_end for f in ended if f.t_end is not None)
    return sorted((f for f in ended if f.t_end == last), key=_order, reverse=True)
