"""A name read as several nodes of one kind means the one the question's other names are
joined to in the graph; nodes of different kinds are left to the parse."""

from __future__ import annotations

from typing import Any

from engine.agent.senses import coherent
from engine.understand.mentions import Candidate, Mention


class Store:
    """Kinds and edges of a handful of nodes."""

    def __init__(self, edges: set[frozenset[str]]) -> None:
        self.edges = edges

    def kind(self, node_id: str) -> str:
        return node_id.split("::", 1)[0]

    def linked(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.edges


def mention(text: str, *ids: str) -> Mention:
    return Mention(text, 0, len(text), 0, 0, [Candidate(n, text, "test", False) for n in ids])


ASPIRIN, PTGS1, MTCO1 = "Compound::DB00945", "Gene::5742", "Gene::4512"


def test_the_sense_joined_to_the_other_name_is_kept() -> None:
    store: Any = Store({frozenset((ASPIRIN, PTGS1))})
    drug, cox = mention("aspirin", ASPIRIN), mention("COX-1", MTCO1, PTGS1)
    got = coherent(store, [(drug, [ASPIRIN]), (cox, [MTCO1, PTGS1])])
    assert got[1][1] == [PTGS1]
    assert got[0][1] == [ASPIRIN]


def test_no_joined_sense_or_no_settled_name_leaves_the_reading() -> None:
    store: Any = Store(set())
    drug, cox = mention("aspirin", ASPIRIN), mention("COX-1", MTCO1, PTGS1)
    assert coherent(store, [(drug, [ASPIRIN]), (cox, [MTCO1, PTGS1])])[1][1] == [MTCO1, PTGS1]
    assert coherent(store, [(cox, [MTCO1, PTGS1])])[0][1] == [MTCO1, PTGS1]


def test_senses_of_different_kinds_are_left_to_the_parse() -> None:
    ms = mention("MS", "Disease::DOID:2377", "Gene::4548")
    store: Any = Store({frozenset(("Compound::X", "Gene::4548"))})
    got = coherent(store, [(mention("x", "Compound::X"), ["Compound::X"]), (ms, ms.node_ids)])
    assert got[1][1] == ["Disease::DOID:2377", "Gene::4548"]


class Graph:
    """Kinds and fact counts of a handful of nodes (``senses.held`` reads degrees)."""

    def __init__(self, facts: dict[str, int]) -> None:
        self.ids = list(facts)
        self.index = {n: i for i, n in enumerate(self.ids)}
        self.facts = facts

    def kind(self, node_id: str) -> str:
        return node_id.split("::", 1)[0]

    def uses(self) -> list[Any]:
        from types import SimpleNamespace

        return [SimpleNamespace(src="Disease"), SimpleNamespace(src="Gene")]

    def degree(self, i: int, use: Any) -> int:
        n = self.ids[i]
        return self.facts[n] if self.kind(n) == use.src else 0

    def objects(self, node_id: str, rel: str) -> list[str]:
        return []  # no subtype edges: the senses are unrelated


def test_a_sense_the_graph_holds_far_more_about_is_the_one_meant() -> None:
    from engine.agent.senses import central

    sle, le, ileitis = "Disease::DOID:9074", "Disease::DOID:8857", "Disease::DOID:0060189"
    store: Any = Graph({sle: 317, le: 27, ileitis: 20})
    assert central(store, mention("lupus", sle, le), [sle, le]) == [sle]
    # senses of like weight are still asked about
    assert central(store, mention("x", le, ileitis), [le, ileitis]) == [le, ileitis]


def test_a_name_of_its_own_is_not_dropped_for_a_busier_synonym() -> None:
    from engine.agent.senses import central

    htt, sert = "Gene::3064", "Gene::6532"
    store: Any = Graph({htt: 20, sert: 400})
    m = Mention(
        "HTT",
        0,
        3,
        0,
        0,
        [Candidate(htt, "HTT", "hetionet", True), Candidate(sert, "HTT", "synonym", False)],
    )
    assert central(store, m, [htt, sert]) == [htt, sert]


def test_a_name_listed_beside_a_settled_one_means_its_sense_of_that_kind() -> None:
    from engine.agent.senses import listed_alike

    mtr, ms, ra = "Gene::4548", "Disease::DOID:2377", "Disease::DOID:7148"
    store: Any = Store(set())
    text = "any drugs approved for both MS and RA?"
    a = Mention("MS", text.index("MS"), text.index("MS") + 2, 0, 0, [])
    b = Mention("RA", text.index("RA"), text.index("RA") + 2, 0, 0, [])
    assert listed_alike(store, text, [(a, [mtr, ms]), (b, [ra])])[0][1] == [ms]
    # not written as a list: left to the parse
    text = "does MS raise RA"
    a = Mention("MS", 5, 7, 0, 0, [])
    b = Mention("RA", 14, 16, 0, 0, [])
    assert listed_alike(store, text, [(a, [mtr, ms]), (b, [ra])])[0][1] == [mtr, ms]


def test_the_sense_holding_the_asked_relation_is_the_one_meant() -> None:
    from types import SimpleNamespace

    from engine.agent.senses import asked_of
    from engine.understand.lexicon import Cue

    disorder, bone = "Disease::DOID:10933", "Disease::DOID:84"
    treated = {disorder}

    class Treats:
        def __init__(self) -> None:
            self.ids = [disorder, bone]
            self.index = {disorder: 0, bone: 1}

        def kind(self, node_id: str) -> str:
            return node_id.split("::", 1)[0]

        def uses(self) -> list[Any]:
            return [
                SimpleNamespace(rel="CtD", src="Disease"),
                SimpleNamespace(rel="DaG", src="Disease"),
            ]

        def degree(self, i: int, use: Any) -> int:
            return int(use.rel == "DaG" or self.ids[i] in treated)

    store: Any = Treats()

    def f(*rels: str) -> Any:
        return SimpleNamespace(cues=tuple(Cue(rels, 0, 2, "tx") for _ in rels[:1]))

    assert asked_of(store, f("CtD"), [disorder, bone]) == [disorder]
    assert asked_of(store, f("DaG"), [disorder, bone]) == [disorder, bone]  # both hold it
    assert asked_of(store, f(), [disorder, bone]) == [disorder, bone]  # nothing asked


def test_two_drugs_sharing_a_brand_or_a_weak_cue_are_still_asked_about() -> None:
    from types import SimpleNamespace

    from engine.agent.senses import asked_of, central
    from engine.understand.lexicon import WEAK, Cue

    digoxin, dipyridamole = "Compound::DB00390", "Compound::DB00975"
    store: Any = Graph({digoxin: 400, dipyridamole: 20})
    m = mention("Cardoxin", digoxin, dipyridamole)
    assert central(store, m, [digoxin, dipyridamole]) == [digoxin, dipyridamole]
    weak: Any = SimpleNamespace(cues=(Cue(("DaG",), 0, 10, "associated", WEAK),))
    genes = ["Gene::254170", "Gene::10941"]
    assert asked_of(Graph({genes[0]: 0, genes[1]: 3}), weak, genes) == genes  # type: ignore[arg-type]
