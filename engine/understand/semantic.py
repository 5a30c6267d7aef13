"""Relation and intent scores by meaning: the question, its mentions masked by kind, against the
exemplar bank.

"Where does psoriasis show up in the body?" is read as "Where does [Disease] show up in the
body?" and embedded with the engine's sentence embedder; each slot of the bank scores the mean
of its two nearest wordings (cosine). Slot probabilities are a softmax of those scores at a
temperature fitted by leave-one-out over the bank itself (no benchmark question is used).
Embeddings of the bank are computed once per engine and cached on disk by content.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.providers.embedder.base import Embedder, Vectors
from engine.understand.bank import PLACEHOLDER, Bank, chain_kinds, placeholder_kinds
from engine.understand.chains import ChainWords
from engine.understand.chains import learn as learn_chains
from engine.understand.lexicon import FUNCTION_WORDS, KIND_WORDS
from engine.understand.polarity import Polarity, direction, learned_ways, reweigh, settle
from engine.understand.twins import TwinWords
from engine.understand.twins import learn as learn_twins
from engine.util.numeric import minimize_log_scale, softmax

TOP_WORDINGS = 2
DEFAULT_TEMPERATURE = 0.05


def masked(question: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """The question with each mention span ``(start, end, kind)`` replaced by its placeholder."""
    out, pos = [], 0
    for start, end, kind in sorted(spans):
        if start < pos:
            continue
        out.append(question[pos:start])
        out.append(PLACEHOLDER.get(kind, "[Entity]"))
        pos = end
    out.append(question[pos:])
    return "".join(out)


@dataclass(frozen=True)
class SlotScores:
    """Per-slot similarity and probability for one masked question."""

    text: str
    sims: dict[str, float]
    probs: dict[str, float]
    directed: frozenset[str] = frozenset()
    """Slots of an up/down relation whose direction the question's words say ('raised')."""

    def top(self, n: int = 2) -> list[tuple[str, float]]:
        return sorted(self.probs.items(), key=lambda kv: -kv[1])[:n]


def cached_vectors(embedder: Embedder, texts: list[str], cache_dir: Path | None) -> Vectors:
    """``embedder``'s vectors of ``texts``, kept in ``cache_dir`` under a digest of the model
    and the texts, so a start with the same wordings reads them instead of embedding them."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    digest = hashlib.sha256(
        (embedder.name + "\x00" + "\x00".join(texts)).encode("utf-8")
    ).hexdigest()[:20]
    path = cache_dir / f"exemplars-{digest}.npy" if cache_dir is not None else None
    if path is not None and path.exists():
        try:
            cached = np.load(path)
            if cached.shape[0] == len(texts):
                return np.asarray(cached, dtype=np.float32)
        except (OSError, ValueError):
            pass
    vecs = np.asarray(embedder.encode(texts), dtype=np.float32)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, vecs)
            tmp.replace(path)
        except OSError:
            pass
    return vecs


class SemanticScorer:
    def __init__(
        self,
        bank: Bank,
        embedder: Embedder,
        cache_dir: Path | None = None,
        temperature: float | None = None,
    ) -> None:
        self.bank = bank
        self.embedder = embedder
        texts = [w for s in bank.slots for w in s.wordings]
        self.row_slot = np.asarray([i for i, s in enumerate(bank.slots) for _ in s.wordings])
        self.slot_rows = [np.flatnonzero(self.row_slot == i) for i in range(len(bank.slots))]
        self.row_kinds = [placeholder_kinds(w) for s in bank.slots for w in s.wordings]
        self.row_intent = np.asarray([s.intent for s in bank.slots for _ in s.wordings])
        self.polarity = Polarity(embedder)
        self._slot_signs: dict[str, int] | None = None
        self._polar_pairs: list[tuple[str, str]] | None = None
        self._twins: TwinWords | None = None
        self._chains: ChainWords | None = None
        self._relation_of = {s.id: s.use.rel for s in bank.slots if s.use is not None}
        self.matrix = cached_vectors(embedder, texts, cache_dir)
        self.temperature = temperature or self.fit_temperature()

    # --- scoring --------------------------------------------------------------------------
    def _slot_sims(self, sims: np.ndarray) -> np.ndarray:
        """Per-slot score: mean of the slot's ``TOP_WORDINGS`` best cosines.

        ``sims`` holds one row of wording similarities per query (or a single row)."""
        rows = np.atleast_2d(sims)
        out = np.full((rows.shape[0], len(self.slot_rows)), -1.0, dtype=np.float32)
        for i, idx in enumerate(self.slot_rows):
            if idx.size:
                part = np.sort(rows[:, idx], axis=1)[:, -TOP_WORDINGS:]
                out[:, i] = part.mean(axis=1)
        return out if sims.ndim == 2 else out[0]

    def row_mask(self, kinds: Iterable[str]) -> np.ndarray:
        """Wordings a question mentioning these kinds can match (all their placeholders are
        among the kinds)."""
        have = frozenset(kinds)
        return np.asarray([k <= have for k in self.row_kinds], dtype=bool)

    def allowed(self, mask: np.ndarray) -> list[int]:
        """Slots with at least one wording in ``mask``."""
        return [i for i, idx in enumerate(self.slot_rows) if idx.size and mask[idx].any()]

    def score(self, text: str, kinds: Iterable[str]) -> SlotScores:
        vec = np.asarray(self.embedder.encode([text]), dtype=np.float32)[0]
        return self.score_vector(text, vec, kinds)

    def score_with(
        self, text: str, also: str, kinds: Iterable[str], without: Iterable[str] = ()
    ) -> tuple[SlotScores, Vectors, Vectors]:
        """Score ``text`` and embed ``also`` (the raw question, for passage search) in one
        batch: one model call per question instead of two. Slots of the intents ``without``
        are left out (a question that is not yes/no is no claim). Returns the scores, the
        vector of ``text`` and that of ``also``."""
        vecs = np.asarray(self.embedder.encode([text, also]), dtype=np.float32)
        return self.score_vector(text, vecs[0], kinds, without), vecs[0], vecs[1:2]

    def score_vector(
        self, text: str, vec: Vectors, kinds: Iterable[str], without: Iterable[str] = ()
    ) -> SlotScores:
        mask = self.row_mask(kinds)
        if without:
            mask &= ~np.isin(self.row_intent, list(without))
        sims = self._slot_sims(np.where(mask, self.matrix @ vec, -1.0))
        allowed = self.allowed(mask)
        probs = softmax([float(sims[i]) for i in allowed], self.temperature)
        by_slot = {self.bank.slots[i].id: p for i, p in zip(allowed, probs, strict=True)}
        directed, said = self._directed(text, by_slot)
        return SlotScores(
            text, {self.bank.slots[i].id: float(sims[i]) for i in allowed}, directed, said
        )

    def _directed(
        self, text: str, probs: dict[str, float]
    ) -> tuple[dict[str, float], frozenset[str]]:
        """When an up/down relation is among the three best readings, the direction the
        question's words say (``polarity``) decides between it and its twin; also the slots
        whose direction the words say."""
        signs = self.slot_signs()
        top = sorted(probs, key=lambda s: -probs[s])[:3]
        said: frozenset[str] = frozenset()
        if any(signs.get(s, 0) for s in top):
            way, sure = self.polarity.read(text)
            said = frozenset(s for s in probs if way and signs.get(s, 0) == way)
            probs = reweigh(probs, signs, way)
            if sure:
                probs = settle(probs, signs, self.polar_pairs(), way)
        polar = frozenset(self._relation_of[s] for s, way in signs.items() if way)
        settled = polar if said else frozenset()
        probs, chosen = self.twin_words().reweigh(probs, self._relation_of, text, polar, settled)
        return self.chain_words().reweigh(probs, text), said | chosen

    def polar_pairs(self) -> list[tuple[str, str]]:
        """Up/down twin slots: the slots of opposite direction joining the same kinds the same
        way ("drug_up.gene->drug", "drug_down.gene->drug")."""
        if self._polar_pairs is None:
            signs = self.slot_signs()
            ends = {s: s.split(".", 1)[1] for s in signs if "." in s}
            self._polar_pairs = [
                (a, b)
                for a in sorted(ends)
                for b in sorted(ends)
                if signs[a] > 0 > signs[b] and ends[a] == ends[b]
            ]
        return self._polar_pairs

    def twin_words(self) -> TwinWords:
        """Words telling each one-hop relation from its twins, learnt from the bank."""
        if self._twins is None:
            self._twins = learn_twins(
                (
                    (s.id, s.use.rel, frozenset({s.use.src, s.use.dst}), w)
                    for s in self.bank.slots
                    if s.use is not None and s.intent == "one_hop"
                    for w in s.wordings
                ),
                KIND_WORDS,
                FUNCTION_WORDS,
            )
        return self._twins

    def chain_words(self) -> ChainWords:
        """Words saying each multi-hop slot's extra hop against its one-hop rivals."""
        if self._chains is None:
            self._chains = learn_chains(
                (
                    (s.id, chain_kinds(s.id), s.wordings)
                    for s in self.bank.slots
                    if s.intent == "multihop" and chain_kinds(s.id)
                ),
                (
                    (s.id, s.use.src, s.use.dst, s.wordings)
                    for s in self.bank.slots
                    if s.use is not None and s.intent == "one_hop"
                ),
                KIND_WORDS,
                FUNCTION_WORDS,
            )
        return self._chains

    def slot_signs(self) -> dict[str, int]:
        """Direction of each one-hop slot's relation, read from its verb ('upregulates': +1)."""
        if self._slot_signs is None:
            slots = [s for s in self.bank.slots if s.use is not None]
            scores = self.polarity.scores([s.use.verb for s in slots if s.use is not None])
            self._slot_signs = {
                s.id: direction(v) for s, v in zip(slots, scores, strict=True) if direction(v)
            }
            self.polarity.learned = learned_ways(
                (s.id, self._slot_signs[s.id], w)
                for s in self.bank.slots
                if s.id in self._slot_signs
                for w in s.wordings
            )
        return self._slot_signs

    def learned(self) -> tuple[object, ...]:
        """What the scorer otherwise learns from the bank on the first question that needs it
        (relation directions, twin and chain words), to be kept with its temperature."""
        self.slot_signs()
        return (
            self._slot_signs,
            self.polar_pairs(),
            self.twin_words(),
            self.chain_words(),
            self.polarity.learned,
        )

    def teach(self, learned: tuple[Any, ...]) -> None:
        """Take what ``learned`` returned (for this bank, model and code) instead of learning."""
        signs, pairs, twins, chains, ways = learned
        self._slot_signs, self._polar_pairs, self._twins, self._chains = signs, pairs, twins, chains
        self.polarity.learned = ways

    # --- calibration (leave one wording out, on the bank itself) -----------------------------
    def loo_samples(self) -> tuple[list[list[float]], list[int]]:
        """For each wording: slot scores with that wording held out, and its own slot's index
        among the slots allowed for its kinds."""
        all_sims = self.matrix @ self.matrix.T
        np.fill_diagonal(all_sims, -1.0)
        rows: list[list[float]] = []
        gold: list[int] = []
        masks: dict[frozenset[str], tuple[np.ndarray, list[int]]] = {}
        for kinds in set(self.row_kinds):
            mask = self.row_mask(kinds)
            masks[kinds] = (mask, self.allowed(mask))
        for r in range(self.matrix.shape[0]):
            own = int(self.row_slot[r])
            mask, allowed = masks[self.row_kinds[r]]
            per_slot = self._slot_sims(np.where(mask, all_sims[r], -1.0))
            rows.append([float(per_slot[i]) for i in allowed])
            gold.append(allowed.index(own))
        return rows, gold

    def fit_temperature(self) -> float:
        rows, gold = self.loo_samples()
        if not rows:
            return DEFAULT_TEMPERATURE
        return fit_softmax_temperature(rows, gold)


def nll(rows: Sequence[Sequence[float]], gold: Sequence[int], temperature: float) -> float:
    total = 0.0
    for scores, g in zip(rows, gold, strict=True):
        p = softmax(scores, temperature)[g]
        total -= math.log(max(p, 1e-9))
    return total / max(1, len(rows))


def fit_softmax_temperature(rows: Sequence[Sequence[float]], gold: Sequence[int]) -> float:
    """T minimising the negative log-likelihood of the gold slot (golden-section on log T)."""
    return minimize_log_scale(lambda t: nll(rows, gold, t), 0.005, 1.0, iterations=40)


def top_label_ece(
    rows: Sequence[Sequence[float]], gold: Sequence[int], temperature: float
) -> float:
    """ECE of the top slot's probability (10 equal-width bins)."""
    from engine.graph.edges import ece

    probs, labels = [], []
    for scores, g in zip(rows, gold, strict=True):
        p = softmax(scores, temperature)
        top = max(range(len(p)), key=p.__getitem__)
        probs.append(p[top])
        labels.append(int(top == g))
    return ece(probs, labels)
