"""A literature answer quotes the sentences of the article's conclusion closest in meaning to
the question, in their own order."""

from __future__ import annotations

import numpy as np

from engine.agent.quote import quote, sentences

CONCLUSION = (
    "Statin use was not associated with lower mortality in patients admitted with sepsis. "
    "The cohort was drawn from three hospitals in 2004. "
    "Further randomised trials are warranted."
)


class WordEmbedder:
    """Vectors from word counts over a small vocabulary: close texts share words."""

    name, dim = "words", 6
    VOCAB = ("statin", "mortality", "sepsis", "cohort", "hospitals", "trials")

    def encode(self, texts: list[str]) -> np.ndarray:
        rows = np.array([[t.lower().count(w) for w in self.VOCAB] for t in texts], dtype=np.float32)
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def test_sentences_split_at_sentence_ends_only() -> None:
    assert len(sentences(CONCLUSION)) == 3
    assert sentences("Dose was 2.5 mg. It worked.") == ["Dose was 2.5 mg.", "It worked."]


def test_the_answering_sentences_are_quoted_in_text_order() -> None:
    got = quote(CONCLUSION, "do statins reduce sepsis mortality? any trials", WordEmbedder())
    assert got == (
        "Statin use was not associated with lower mortality in patients admitted with sepsis. "
        "Further randomised trials are warranted."
    )


def test_a_short_conclusion_is_quoted_whole() -> None:
    assert quote("It helped. It was safe.", "anything", None) == "It helped. It was safe."
