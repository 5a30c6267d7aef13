"""A patient's condition the graph names only as a side effect ("septic shock", "gout flare",
"COPD exacerbation") is the patient's diagnosis when the statement ties it to no drug.

The graph keeps many clinical states under SIDER's side effects only, some as a course of a
disease it does know ("flare", "exacerbation"). Said on a ward beside a patient's name with no
drug it came from ("bed 9 mr okafor copd exacerbation - pred 40mg od"), such a state is why the
patient is there: the disease its words name ("gout" of "gout flare") is read in its place,
else the state itself is read as a Disease too. A harm put down to a drug ("diarrhoea on the
pip-taz") and a state that is also a symptom ("palpitations") keep their readings, and so does
a state of one word, too vague to be why a patient is there ("gas" of "lactate 2.9 on the
evening gas"). Pure: the linker is passed.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.result import LinkedEntity

DISEASE = "Disease"
_STATE_KINDS = frozenset({"Side Effect"})
_OTHER_READINGS = frozenset({DISEASE, "Symptom", "Compound", "Gene"})

LinkKinds = Callable[[str, set[str]], list[LinkedEntity]]
"""The statement linker restricted to kinds: ``(text, kinds) -> entities``."""


def as_conditions(
    text: str,
    entities: list[LinkedEntity],
    tied: Callable[[LinkedEntity], bool],
    link_kinds: LinkKinds,
) -> list[LinkedEntity]:
    """``entities`` with each span of several words read only as a side effect and not ``tied``
    to a drug read
    as a condition: the disease its own words name (``link_kinds`` over the span, Disease
    only) in its place, on those words ("gout" of "gout flare"); else the state itself, read
    as a Disease too."""
    spans: dict[tuple[int, int], set[str]] = {}
    for e in entities:
        spans.setdefault((e.start, e.end), set()).add(e.kind)
    out: list[LinkedEntity] = []
    for e in entities:
        kinds = spans[(e.start, e.end)]
        if (
            e.start < 0
            or e.kind not in _STATE_KINDS
            or kinds & _OTHER_READINGS
            or len(e.mention.split()) < 2
            or tied(e)
        ):
            out.append(e)
            continue
        inner = [d for d in link_kinds(text[e.start : e.end], {DISEASE}) if d.kind == DISEASE]
        if inner:
            d = inner[0]
            out.append(
                d.model_copy(
                    update={"start": e.start + d.start, "end": e.start + d.end, "score": e.score}
                )
            )
        else:
            out += [e, e.model_copy(update={"kind": DISEASE})]
    return sorted(out, key=lambda x: x.start)
