"""Clinical short forms and lay words in questions (``engine/understand/shortforms.tsv``), on
the real engine slice: read through the graph's own names, said in the answer, and never
outranked by a gene's synonym or a guessed initialism of the same letters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.result import Status
from engine.understand.shortforms import ShortForm, form_key, short_forms


def test_a_short_form_is_read_as_the_name_the_graph_holds_and_said(helix: Any) -> None:
    r = helix.ask("meds for T2D")
    assert r.status is Status.ANSWERED
    assert [e.id for e in r.linked] == ["Disease::DOID:9352"]
    assert r.text.startswith("Reading 'T2D' as type 2 diabetes mellitus")


def test_a_lay_word_links_the_symptom_it_names(helix: Any) -> None:
    linked = helix.link("is itching a symptom of psoriasis")
    assert {e.name for e in linked} == {"Pruritus", "psoriasis"}


def test_a_word_completed_by_the_short_form_after_it(helix: Any) -> None:
    # "ca" after a word completes it: "prostate ca" is prostate cancer, "does ca" nothing
    linked = helix.link("genes for prostate ca")
    assert [e.name for e in linked] == ["prostate cancer"]
    assert helix.link("what does ca do") == []


def test_a_case_form_is_read_only_as_written(helix: Any) -> None:
    # "PD" is Parkinson's disease; "pd" typed in lower case in a question that asks nothing
    # of a disease is not read so by the short form
    assert [e.id for e in helix.link("drugs for PD")] == ["Disease::DOID:14330"]
    form = ShortForm(("PD",), ("parkinson s disease",), "case")
    assert form.reads(["PD"]) and not form.reads(["pd"])


def test_the_file_reads_whole_and_a_bad_line_is_named(tmp_path: Path) -> None:
    forms = short_forms()
    assert form_key("Breast  Ca") == "breast ca"
    assert forms["ca"][0].how == "after"
    bad = tmp_path / "forms.tsv"
    bad.write_text("# comment\nGERD\tgastroesophageal reflux disease\tsometimes\n")
    with pytest.raises(ValueError, match="cannot read"):
        short_forms(bad)


def test_a_salt_is_read_as_its_acid_and_a_former_british_name_as_the_international(
    helix: Any,
) -> None:
    from engine.understand.linking import salt_acid

    assert salt_acid("valproate") == "valproic acid"
    assert salt_acid("rate") is None
    assert [e.name for e in helix.link("what does valproate treat")] == ["Valproic Acid"]
    # a word that only looks like a salt links nothing the graph does not hold
    assert helix.link("what does it indicate") == []
    assert [e.name for e in helix.link("side effects of phenobarbitone")] == ["Phenobarbital"]


def test_a_capitals_only_short_form_in_lower_case_where_a_name_is_asked_for(helix: Any) -> None:
    # "CsA" is read only as written, but "csa" beside a cue asks for a name
    r = helix.ask("what does csa treat")
    assert [e.name for e in r.linked] == ["Cyclosporine"]
    assert not any(e.name == "Cyclosporine" for e in helix.link("csa"))
