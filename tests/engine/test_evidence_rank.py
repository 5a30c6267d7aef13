"""The evidence order of one-hop answers: the pure function against a small reference
implementation and a hand-computed order, and on a small store where id order and evidence
order differ, no cut by id (answers, listed paths, the names written, the walk's fan-out)."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from engine.agent.evidence import MAX_PATHS, fill_from_paths
from engine.agent.explainer import MAX_LISTED, kg_answer
from engine.config import Settings
from engine.graph.edges import LocalEdgePredictor
from engine.graph.metapaths import Metapath
from engine.graph.relations import directed_uses
from engine.graph.store import KGStore
from engine.graph.walk import MAX_FANOUT, Budget, Walker
from engine.ingest import kg as kgload
from engine.ranking.answers import rank_paths
from engine.ranking.evidence import Signals, evidence_order, evidence_score, weigh, why
from engine.ranking.signals import answer_signals
from engine.result import Result, Status

USES = {u.key: u for u in directed_uses()}


def reference_score(s: Signals) -> float:
    """The module docstring's sum, written out again plainly."""
    extra = min(3, max(0, len(s.sources) - 1))
    graded = min(1.0, (s.source_score or 0.0) / 5.0)
    action = 0.75 if s.action and s.action not in ("substrate", "other") else 0.0
    link = 0.0
    if s.links > 0:
        link = 0.5 + 0.5 * min(1.0, math.log(s.links) / math.log(s.saturation))
    if s.population <= 1:
        spec = 0.0
    else:
        d = min(max(s.degree, 1), s.population)
        spec = math.log(s.population / d) / math.log(s.population)
    share = min(1.0, s.peers_sharing / s.peers) if s.peers else 0.0
    sub = 0.0
    if s.subtypes > 0:
        sub = 0.5 + 0.5 * min(1.0, math.log(s.subtypes) / math.log(4))
    rest = 1.0 * sub + 0.75 * min(1.0, s.mention) + 2.0 * s.defined
    if s.common_first:  # a disease's symptoms: those its kin share count in full
        return 1.0 * extra + 0.5 * graded + action + 1.0 * link + 1.0 * share + 0.3 * spec + rest
    return 1.0 * extra + 0.5 * graded + action + 1.0 * link + 1.0 * share * spec + 0.3 * spec + rest


def test_hand_computed_order() -> None:
    signals = {
        # two sources and an action: 1 + 0.75 + 0.3 * log(2)/log(100) = 1.795
        "Gene::1": Signals(
            ("hetionet", "DrugCentral"), action="inhibitor", degree=50, population=100
        ),
        # four links (saturated) on a hub: 1.0
        "Gene::2": Signals(links=4, degree=100, population=100),
        # one link, linked to one node only: 0.5 + 0.3 = 0.8
        "Gene::3": Signals(links=1, degree=1, population=100),
        # no corroboration, fully specific: 0.3 each, so the name decides: Alpha before Beta
        "Gene::4": Signals(degree=1, population=100),
        "Gene::5": Signals(degree=1, population=100),
        # every class-mate binds it too, on a fairly specific gene: (1 + 0.3) * log(10)/log(100)
        # = 0.65
        "Gene::7": Signals(peers=3, peers_sharing=3, degree=10, population=100),
        # a disposition action on a hub: 0
        "Gene::6": Signals(("DrugCentral",), action="substrate", degree=100, population=100),
    }
    names = {
        "Gene::1": "Zeta",
        "Gene::2": "Eta",
        "Gene::3": "Theta",
        "Gene::4": "Beta",
        "Gene::5": "Alpha",
        "Gene::6": "Gamma",
        "Gene::7": "Delta",
    }
    assert evidence_order(signals, names) == [
        "Gene::1",
        "Gene::2",
        "Gene::3",
        "Gene::7",
        "Gene::5",
        "Gene::4",
        "Gene::6",
    ]
    assert evidence_score(signals["Gene::1"]) == pytest.approx(1.795, abs=1e-3)
    assert "action inhibitor" in why(signals["Gene::1"])
    assert "linked to 1 of 100" in why(signals["Gene::3"])


def test_matches_the_reference_on_random_signals() -> None:
    rng = random.Random(7)
    sources = ["hetionet", "DrugCentral", "DISEASES 2022", "DISEASES 2015", "Reactome"]
    for _ in range(200):
        pop = rng.choice([1, 2, 50, 1500])
        s = Signals(
            sources=tuple(rng.sample(sources, rng.randint(0, 5))),
            source_score=rng.choice([None, 2.0, 4.5, 5.0]),
            action=rng.choice([None, "inhibitor", "substrate", "other", "agonist"]),
            links=rng.randint(0, 40),
            saturation=rng.choice([4, 32]),
            peers=(peers := rng.randint(0, 6)),
            peers_sharing=rng.randint(0, peers),
            degree=rng.randint(0, pop + 3),
            population=pop,
            common_first=rng.random() < 0.3,
            subtypes=rng.choice([0, 0, 1, 3, 9]),
            mention=rng.choice([0.0, 0.0, 0.4, 0.9]),
            defined=rng.random() < 0.2,
        )
        assert evidence_score(s) == pytest.approx(reference_score(s), abs=1e-5)


def test_a_diseases_symptoms_its_kin_share_come_first_however_common() -> None:
    # tremor: presented by many diseases, three of the four resembling the seed among them
    tremor = Signals(peers=4, peers_sharing=3, degree=80, population=100, common_first=True)
    rare = Signals(peers=4, peers_sharing=0, degree=2, population=100, common_first=True)
    assert evidence_order(
        {"S::rare": rare, "S::tremor": tremor}, {"S::rare": "Prosopagnosia", "S::tremor": "Tremor"}
    ) == ["S::tremor", "S::rare"]
    # elsewhere kin agreeing on a common answer counts for little (every drug's enzyme)
    assert evidence_order(
        {
            "S::rare": replace(rare, common_first=False),
            "S::tremor": replace(tremor, common_first=False),
        },
        {"S::rare": "Prosopagnosia", "S::tremor": "Tremor"},
    ) == ["S::rare", "S::tremor"]


def test_a_drug_for_the_diseases_subtypes_leads_and_a_passage_mention_only_breaks_ties() -> None:
    # both state the drug treats asthma (two sources); one is also filed under two kinds of
    # asthma, the other is named by an abstract retrieved for the question
    base = Signals(("hetionet", "DrugCentral"), degree=5, population=700)
    kinds = replace(base, subtypes=2)
    named = replace(base, mention=0.9)
    names = {"C::kinds": "Zafirlukast", "C::named": "Albuterol", "C::plain": "Beclomethasone"}
    order = evidence_order({"C::kinds": kinds, "C::named": named, "C::plain": base}, names)
    assert order == ["C::kinds", "C::named", "C::plain"]
    # a mention never outweighs one more source
    assert evidence_score(replace(base, mention=1.0)) < evidence_score(
        replace(base, sources=(*base.sources, "DISEASES 2022"))
    )
    assert "2 subtypes too" in why(kinds)
    assert "named in a retrieved passage" in why(named)


def test_corroboration_beats_specificity() -> None:
    hub_linked = Signals(links=1, degree=500, population=500)
    specific = Signals(degree=1, population=500)
    assert evidence_score(hub_linked) > evidence_score(specific)
    famous = Signals(("hetionet", "DISEASES 2022"), source_score=5.0, degree=300, population=300)
    assert evidence_score(famous) > evidence_score(specific)


# --- on a store ----------------------------------------------------------------------------

N_ENZYMES = 30


@pytest.fixture(scope="module")
def drug_graph(tmp_path_factory: pytest.TempPathFactory) -> KGStore:
    """Losartan binds 30 enzymes (Gene::100..129, named in reverse, each bound by 20 other
    drugs) and one receptor, Gene::999 (last in id order), associated with the disease
    losartan treats.
    Another disease has 450 associated genes; the one most corroborated is last in id order."""
    nodes = [("Compound::DB00678", "Losartan", "Compound"), ("Gene::999", "AGTR1", "Gene")]
    nodes += [(f"Gene::{100 + k}", f"CYP{N_ENZYMES - k:02d}", "Gene") for k in range(N_ENZYMES)]
    nodes += [(f"Compound::X{k:02d}", f"Other{k:02d}", "Compound") for k in range(20)]
    nodes += [("Disease::D1", "hypertension", "Disease"), ("Disease::D2", "big cancer", "Disease")]
    nodes += [(f"Gene::{5000 + k}", f"G{k:03d}", "Gene") for k in range(450)]
    triples = [("Compound::DB00678", "CbG", "Gene::999", "t")]
    triples += [("Compound::DB00678", "CbG", f"Gene::{100 + k}", "t") for k in range(N_ENZYMES)]
    triples += [
        (f"Compound::X{j:02d}", "CbG", f"Gene::{100 + k}", "t")
        for j in range(20)
        for k in range(N_ENZYMES)
    ]
    triples += [
        ("Compound::DB00678", "CtD", "Disease::D1", "t"),
        ("Disease::D1", "DaG", "Gene::999", "t"),
    ]
    triples += [("Disease::D2", "DaG", f"Gene::{5000 + k}", "t") for k in range(450)]
    # the last gene of the big disease interacts with forty others associated with it
    triples += [("Gene::5449", "GiG", f"Gene::{5000 + k}", "t") for k in range(40)]
    return _store(Path(tmp_path_factory.mktemp("evidence")), nodes, triples)


def _store(
    where: Path, nodes: list[tuple[str, str, str]], triples: list[tuple[str, str, str, str]]
) -> KGStore:
    """A store of ``nodes`` and ``triples`` in ``where``."""
    path = where / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(con, "nodes", nodes)
    kgload.bulk_insert(con, "triples", triples)
    con.close()
    return KGStore(path)


def _answer(store: KGStore, tmp_path: Path, seed: str, *keys: str) -> Result:
    """The answer of one-hop walks from ``seed`` along each of ``keys``."""
    return _walked(store, tmp_path, seed, [(Metapath((USES[k],)), 1.0 / len(keys)) for k in keys])


def _walked(
    store: KGStore, tmp_path: Path, seed: str, dist: list[tuple[Metapath, float]]
) -> Result:
    depth = max(len(mp.uses) for mp, _ in dist)
    walker = Walker(store, LocalEdgePredictor(), Budget(depth, 10_000, 60_000))
    walk = walker.walk([store.index[seed]], dist, qhash=f"q-{seed}")
    result = Result(status=Status.ANSWERED, question="q")
    fill_from_paths(result, store, Settings(home=tmp_path), rank_paths(walk.paths, dist), None, [])
    return result


def test_the_target_the_drug_exists_for_leads(drug_graph: KGStore, tmp_path: Path) -> None:
    result = _answer(drug_graph, tmp_path, "Compound::DB00678", "CbG")
    ids = [a.id for a in result.answers]
    assert ids[0] == "Gene::999"
    assert result.answers[0].why and "treated diseases" in result.answers[0].why
    # equal evidence: by name, not by id (the names run against the ids)
    rest = [a.name for a in result.answers[1:]]
    assert rest == sorted(rest, key=str.lower)
    assert [a.id for a in result.answers[1:]] == sorted(ids[1:], reverse=True)
    assert result.paths[0] == [("Compound::DB00678", "CbG", "Gene::999")]
    assert len(result.paths) == MAX_PATHS
    text = kg_answer(drug_graph, result.answers, result.paths, "Genes that Losartan binds")
    assert "AGTR1" in text
    assert f"and {len(ids) - MAX_LISTED} more" in text


def test_a_long_list_is_not_cut_by_id(drug_graph: KGStore, tmp_path: Path) -> None:
    assert MAX_FANOUT < 450
    result = _answer(drug_graph, tmp_path, "Disease::D2", "DaG")
    ids = [a.id for a in result.answers]
    assert len(ids) == 450
    assert ids[0] == "Gene::5449"
    assert ("Disease::D2", "DaG", "Gene::5449") in [p[0] for p in result.paths]
    assert result.triples()[0] == ("Disease::D2", "DaG", "Gene::5449")


def test_signals_only_for_one_hop_answers(drug_graph: KGStore) -> None:
    from engine.graph.walk import WalkPath

    s, g, d = (drug_graph.index[n] for n in ("Compound::DB00678", "Gene::999", "Disease::D1"))
    one = WalkPath((s, g), (USES["CbG"],), 1.0)
    two = WalkPath((s, g, d), (USES["CbG"], USES["DaG^-1"]), 1.0)
    found = answer_signals(drug_graph, [one, two])
    assert set(found) == {"Gene::999"}
    assert found["Gene::999"].links == 1
    assert found["Gene::999"].degree == 1


def test_weighing_keeps_a_likelier_reading_ahead() -> None:
    signals = {
        "Disease::a": Signals(links=4, degree=1, population=100),
        "Disease::b": Signals(degree=100, population=100),
        "Disease::c": Signals(links=4, degree=1, population=100),
    }
    # a and b by the likelier reading (1.0), c by a reading half as likely
    weighed = weigh({"Disease::a": 1.0, "Disease::b": 1.0, "Disease::c": 0.5}, signals)
    assert weighed["Disease::a"] == pytest.approx(1.0)
    assert weighed["Disease::b"] == pytest.approx(0.8)
    assert weighed["Disease::b"] > weighed["Disease::c"] == pytest.approx(0.5)


def test_a_drug_filed_under_the_diseases_subtypes_leads_its_list(tmp_path: Path) -> None:
    """Three drugs treat asthma, named so that the name order is the reverse; the last by name
    also treats two kinds of asthma (``DsD`` subtypes, one two levels down)."""
    nodes = [
        ("Disease::A", "asthma", "Disease"),
        ("Disease::A1", "allergic asthma", "Disease"),
        ("Disease::A11", "extrinsic allergic asthma", "Disease"),
        ("Compound::1", "Aminophylline", "Compound"),
        ("Compound::2", "Bambuterol", "Compound"),
        ("Compound::3", "Zafirlukast", "Compound"),
    ]
    triples = [(f"Compound::{k}", "CtD", "Disease::A", "t") for k in (1, 2, 3)]
    triples += [
        ("Disease::A1", "DsD", "Disease::A", "t"),
        ("Disease::A11", "DsD", "Disease::A1", "t"),
        ("Compound::3", "CtD", "Disease::A1", "t"),
        ("Compound::3", "CtD", "Disease::A11", "t"),
    ]
    store = _store(tmp_path, nodes, triples)
    result = _answer(store, tmp_path, "Disease::A", "CtD^-1")
    assert [a.name for a in result.answers] == ["Zafirlukast", "Aminophylline", "Bambuterol"]
    assert result.answers[0].why and "2 subtypes too" in result.answers[0].why
    # seen from the drug, a broad term is not raised by the diseases filed under it
    drug = {a.name: a.why or "" for a in _answer(store, tmp_path, "Compound::3", "CtD").answers}
    assert not any("subtype" in w for w in drug.values())


def test_a_drugs_pathways_through_its_target_come_before_those_through_its_enzymes(
    tmp_path: Path,
) -> None:
    """Losartan binds its receptor (tied to the disease it treats) and ten enzymes every other
    drug binds too; the enzymes all take part in one pathway, the receptor in another, named
    to come last by name."""
    nodes = [
        ("Compound::L", "Losartan", "Compound"),
        ("Gene::1", "AGTR1", "Gene"),
        ("Disease::H", "hypertension", "Disease"),
        ("Pathway::A", "A metabolism", "Pathway"),
        ("Pathway::Z", "Z renin-angiotensin", "Pathway"),
    ]
    nodes += [(f"Gene::{10 + k}", f"CYP{k}", "Gene") for k in range(10)]
    nodes += [(f"Compound::O{k}", f"Other{k}", "Compound") for k in range(15)]
    triples = [
        ("Compound::L", "CbG", "Gene::1", "t"),
        ("Compound::L", "CtD", "Disease::H", "t"),
        ("Disease::H", "DaG", "Gene::1", "t"),
        ("Gene::1", "GpPW", "Pathway::Z", "t"),
    ]
    for k in range(10):
        triples += [
            ("Compound::L", "CbG", f"Gene::{10 + k}", "t"),
            (f"Gene::{10 + k}", "GpPW", "Pathway::A", "t"),
        ]
        triples += [(f"Compound::O{j}", "CbG", f"Gene::{10 + k}", "t") for j in range(15)]
    store = _store(tmp_path, nodes, triples)
    along = Metapath((USES["CbG"], USES["GpPW"]))
    result = _walked(store, tmp_path, "Compound::L", [(along, 1.0)])
    assert [a.name for a in result.answers] == ["Z renin-angiotensin", "A metabolism"]


def test_a_mechanisms_targets_come_before_its_class_and_diseases() -> None:
    from engine.agent.evidence import targets_first
    from engine.result import Answer

    answers = [
        Answer(id="PC::1", name="Hypoglycemic Agents", score=0.7, kind="Pharmacologic Class"),
        Answer(id="Gene::1", name="ND1", score=0.6, kind="Gene"),
        Answer(id="Disease::1", name="polycystic ovary syndrome", score=0.5, kind="Disease"),
        Answer(id="Gene::2", name="PRKAB1", score=0.4, kind="Gene"),
    ]
    assert [a.name for a in targets_first(answers)] == [
        "ND1",
        "PRKAB1",
        "Hypoglycemic Agents",
        "polycystic ovary syndrome",
    ]


def test_the_gene_and_symptoms_a_disease_is_defined_by_lead(tmp_path: Path) -> None:
    """Three genes and three symptoms of one disease, equal but for the definition, which
    names one gene and one symptom in another form ("coughing")."""
    nodes = [("Disease::D", "zorb fever", "Disease")]
    nodes += [(f"Gene::{k}", f"ZRB{k}", "Gene") for k in (1, 2, 3)]
    nodes += [
        (f"Symptom::{k}", name, "Symptom") for k, name in enumerate(("Ache", "Cough", "Rash"))
    ]
    triples = [("Disease::D", "DaG", f"Gene::{k}", "t") for k in (1, 2, 3)]
    triples += [("Disease::D", "DpS", f"Symptom::{k}", "t") for k in range(3)]
    path = tmp_path / "kg.duckdb"
    con = duckdb.connect(str(path))
    con.execute(kgload.SCHEMA)
    kgload.bulk_insert(con, "nodes", nodes)
    kgload.bulk_insert(con, "triples", triples)
    con.execute(
        "INSERT INTO node_details VALUES ('Disease::D', "
        "'A fever caused by mutations in the ZRB2 gene. It has_symptom coughing.')"
    )
    con.close()
    store = KGStore(path)
    genes = _answer(store, tmp_path, "Disease::D", "DaG")
    assert genes.answers[0].id == "Gene::2"
    assert genes.answers[0].why and "named in its definition" in genes.answers[0].why
    assert [a.name for a in genes.answers[1:]] == ["ZRB1", "ZRB3"]
    signs = _answer(store, tmp_path, "Disease::D", "DpS")
    assert [a.name for a in signs.answers] == ["Cough", "Ache", "Rash"]


def test_of_equal_evidence_the_answer_the_graph_knows_more_about_comes_first() -> None:
    from engine.agent.evidence import by_evidence
    from engine.result import Answer

    same = Signals(("DrugCentral",), degree=1, population=699)
    answers = [
        Answer(id=f"Compound::{n}", name=n, score=0.6, kind="Compound")
        for n in ("Ambenonium", "Neostigmine", "Pyridostigmine")
    ]
    edges = {"Compound::Ambenonium": 3, "Compound::Neostigmine": 40, "Compound::Pyridostigmine": 25}
    ordered = by_evidence(answers, dict.fromkeys(edges, same), edges.__getitem__)
    assert [a.name for a in ordered] == ["Neostigmine", "Pyridostigmine", "Ambenonium"]
    # without edge counts: by name
    assert [a.name for a in by_evidence(answers, dict.fromkeys(edges, same))] == [
        "Ambenonium",
        "Neostigmine",
        "Pyridostigmine",
    ]
