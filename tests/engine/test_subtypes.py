"""A therapy answer goes on with the drugs of the disease's subtypes, after its own."""

from __future__ import annotations

from engine.agent.subtypes import SUBTYPE_SHARE, add_subtype, therapy_of
from engine.result import Answer, Result, Status

DM, T2D = "Disease::DOID:9351", "Disease::DOID:9352"


def _answer(i: str, score: float) -> Answer:
    return Answer(id=i, name=i.split("::")[1], score=score, kind="Compound")


def test_subtype_drugs_come_after_the_diseases_own_and_say_which_subtype() -> None:
    own = Result(
        status=Status.ANSWERED,
        answers=[_answer("Compound::insulin", 0.9), _answer("Compound::pramlintide", 0.6)],
        paths=[[("Compound::insulin", "CtD", DM)], [("Compound::pramlintide", "CtD", DM)]],
        text="**Drugs for diabetes mellitus**: insulin, pramlintide.",
    )
    assert therapy_of(own, DM) and not therapy_of(own, T2D)
    sub = Result(
        status=Status.ANSWERED,
        answers=[_answer("Compound::metformin", 0.8), _answer("Compound::insulin", 0.7)],
        paths=[[("Compound::metformin", "CtD", T2D)], [("Compound::insulin", "CtD", T2D)]],
    )
    assert add_subtype(own, sub, DM, T2D, "type 2 diabetes mellitus") == 1
    assert [a.id for a in own.answers] == [
        "Compound::insulin",
        "Compound::pramlintide",
        "Compound::metformin",
    ]
    assert own.answers[-1].score == 0.6 * SUBTYPE_SHARE
    assert own.paths[-1] == [("Compound::metformin", "CtD", T2D), (T2D, "DsD", DM)]
    assert own.text.endswith("For its subtype **type 2 diabetes mellitus**: metformin.")
    # a path that is not one drug's treats edge to the disease is no therapy answer
    own.paths.append([("Compound::metformin", "CbG", "Gene::1")])
    assert not therapy_of(own, DM)
