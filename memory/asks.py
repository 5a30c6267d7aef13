"""Memory questions read by meaning: which relation and which time are asked about.

The question is embedded with its mentions replaced by their kinds ("Which drug did we start
[Patient] on?") and compared with the ``memory_ask`` section of the exemplar bank
(``engine/understand/exemplars.yaml``, data written without sight of our dev questions): slots
such as ``takes.first`` or ``allergic_to.current``, each a description and many wordings.

One embedding gives the best cosine of the question to each slot's wordings; a relation's
score is its best slot. The bank's general-overview wordings ("everything you have on
[Patient]") compete as a pseudo-relation, so "what do we have on file for X" asks for no one
relation. The time qualifier also reads the words the bank uses per qualifier
(``memory.timewords``).

``memory.choose`` combines these with the cue lexicons and the router's rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engine.ports import Embed
from engine.util.yamltext import safe_load
from memory.relations import RelationCatalog, SharedCues
from memory.router import Temporal
from memory.timewords import TimeWords

if TYPE_CHECKING:
    from engine.understand.bank import Slot as BankSlot

log = logging.getLogger(__name__)
DEFAULT_BANK = Path(str(resources.files("engine.understand").joinpath("exemplars.yaml")))
SECTION = "memory_ask"
OVERVIEW = "overview"
"""Pseudo-relation: the bank's general-overview wordings, about a patient or a project."""
_PLACEHOLDER = re.compile(r"\[(?P<kind>[A-Za-z]+?)\d*\]")


@dataclass(frozen=True)
class Slot:
    rel: str
    temporal: Temporal
    description: str
    wordings: tuple[str, ...]


@dataclass(frozen=True)
class AskReading:
    masked: str
    slots: dict[tuple[str, Temporal], float]
    """(relation, time qualifier) -> best cosine to any wording of that slot."""

    times: dict[Temporal, float] = field(default_factory=dict)
    """Time qualifier -> log-odds of the question's words (``memory.timewords``)."""
    vector: npt.NDArray[np.float32] | None = field(default=None, repr=False, compare=False)
    """The masked question's embedding (``AskScorer.graph_read`` reuses it)."""

    @property
    def relations(self) -> dict[str, float]:
        """Relation -> best cosine to any of its wordings."""
        out: dict[str, float] = {}
        for (rel, _), score in self.slots.items():
            if rel != OVERVIEW:
                out[rel] = max(out.get(rel, -1.0), score)
        return out

    @property
    def overview(self) -> float:
        """Best cosine to a general-overview wording ("everything you have on [Patient]")."""
        return self.slots.get((OVERVIEW, Temporal.CURRENT), -1.0)


def load_slots(path: Path | None = None) -> list[Slot]:
    """The ``memory_ask`` slots of an exemplar bank (the packaged one by default)."""
    return list(_load(str(path or DEFAULT_BANK)))


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Slot, ...]:
    if not Path(path).is_file():
        log.warning("exemplar bank %s is missing: memory questions are read by cues only", path)
        return ()
    data = safe_load(Path(path).read_text(encoding="utf-8")) or {}
    out: list[Slot] = []
    for name, body in (data.get(SECTION) or {}).items():
        rel, _, when = str(name).partition(".")
        try:
            temporal = Temporal(when or "current")
        except ValueError:
            continue
        wordings = tuple(_canonical(w) for w in body.get("wordings") or [] if str(w).strip())
        if wordings:
            out.append(Slot(rel, temporal, str(body.get("description", "")), wordings))
    overview = ((data.get("intents") or {}).get(OVERVIEW) or {}).get("wordings") or []
    about = tuple(
        _PLACEHOLDER.sub(f"[{kind}]", str(w).strip())
        for kind in ("Patient", "Project")
        for w in overview
    )
    if out and about:
        out.append(Slot(OVERVIEW, Temporal.CURRENT, "everything about one subject", about))
    return tuple(out)


STATEMENTS = "memory_say"
"""The bank's section of statement wordings (``takes.start``, ``takes.stop``, ...)."""


@lru_cache(maxsize=4)
def load_said(path: str | None = None) -> dict[str, tuple[str, ...]]:
    """The ``memory_say`` wordings of an exemplar bank by slot (the packaged one by default)."""
    file = Path(path or DEFAULT_BANK)
    if not file.is_file():
        return {}
    data = safe_load(file.read_text(encoding="utf-8")) or {}
    return {
        str(name): tuple(_canonical(w) for w in body.get("wordings") or [] if str(w).strip())
        for name, body in (data.get(STATEMENTS) or {}).items()
    }


def _separating(stop: npt.NDArray[np.float32], start: npt.NDArray[np.float32]) -> float:
    """The margin (best cosine to a stop wording less best to a start wording) that best
    tells the bank's own stop wordings from its start wordings, each read against the others
    with itself left out; of equally good margins, the highest. Pure."""

    def loo(
        own: npt.NDArray[np.float32], other: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        same = own @ own.T
        np.fill_diagonal(same, -1.0)
        return np.asarray(same.max(axis=1) - (own @ other.T).max(axis=1), dtype=np.float32)

    stops, starts = loo(stop, start), -loo(start, stop)
    best, floor = -1, 0.0
    for cut in sorted({*stops.tolist(), *starts.tolist()}):
        right = int((stops > cut).sum() + (starts <= cut).sum())
        if right >= best:
            best, floor = right, cut
    return floor


def question_words(slots: Iterable[Slot]) -> set[str]:
    """The words the memory wordings ask with ("previous", "allergies", "biomarker"): what
    a typo in a memory question is corrected to."""
    return {
        w
        for s in slots
        for text in s.wordings
        for w in re.findall(r"[a-z]+", _PLACEHOLDER.sub(" ", text).lower())
    }


def _canonical(text: str) -> str:
    """Placeholders in one spelling: "[Compound2]" -> "[Compound]"."""
    return _PLACEHOLDER.sub(lambda m: f"[{m.group('kind')}]", str(text).strip())


def mask(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each (start, end, kind) span replaced by "[Kind]"; overlapping spans keep
    the longest; neighbouring spans of one kind ("Ana Nguyen (6971)") become one."""
    ranked = sorted((s for s in spans if 0 <= s[0] < s[1]), key=lambda s: s[0] - s[1])
    kept: list[tuple[int, int, str]] = []
    for start, end, kind in ranked:
        if not any(start < b and a < end for a, b, _ in kept):
            kept.append((start, end, kind))
    kept.sort()
    merged: list[tuple[int, int, str]] = []
    for span in kept:
        gap = text[merged[-1][1] : span[0]] if merged else ""
        if merged and merged[-1][2] == span[2] and _joinable(gap):
            closes = "(" in gap and text[span[1] : span[1] + 1] == ")"
            merged[-1] = (merged[-1][0], span[1] + closes, span[2])
        else:
            merged.append(span)
    out, at = [], 0
    for start, end, kind in merged:
        out += [text[at:start], f"[{kind}]"]
        at = end
    out.append(text[at:])
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _joinable(gap: str) -> bool:
    return not gap.strip(" (),") and len(gap) <= 3


def _one_hop_slots() -> list[BankSlot]:
    """The engine bank's one-hop slots (``engine.understand.bank``), read when first needed."""
    from engine.understand.bank import Bank

    return [s for s in Bank.load().slots if s.section == "one_hop"]


class AskScorer:
    """Relation and time-qualifier readings of memory questions against the exemplar bank.

    The bank is embedded on first use; share one scorer between the users of a process."""

    def __init__(self, embed: Embed, slots: Sequence[Slot] | None = None) -> None:
        self._embed = embed
        self.slots = list(slots if slots is not None else load_slots())
        self._matrix: npt.NDArray[np.float32] | None = None
        self._owner: list[int] = []
        self._graph: dict[
            str, tuple[list[str], npt.NDArray[np.int_], npt.NDArray[np.float32] | None]
        ] = {}
        self._shared: tuple[RelationCatalog, SharedCues] | None = None
        self._offsets: tuple[RelationCatalog, dict[str, float]] | None = None
        self._stop: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], float] | None = None
        timed = {s.rel for s in self.slots if s.temporal != Temporal.CURRENT}
        self.time_words = TimeWords(
            (s.temporal, w) for s in self.slots if s.rel in timed for w in s.wordings
        )

    def _bank(self) -> npt.NDArray[np.float32]:
        if self._matrix is None:
            texts = [w for s in self.slots for w in s.wordings]
            self._owner = [i for i, s in enumerate(self.slots) for _ in s.wordings]
            self._matrix = np.asarray(self._embed(texts), dtype=np.float32)
        return self._matrix

    def read(self, masked: str) -> AskReading:
        if not self.slots:
            return AskReading(masked, {})
        bank = self._bank()
        vec = np.asarray(self._embed([masked]), dtype=np.float32)[0]
        per_slot = np.full(len(self.slots), -1.0, dtype=np.float32)
        np.maximum.at(per_slot, np.asarray(self._owner), bank @ vec)
        scores = zip(self.slots, per_slot.tolist(), strict=True)
        slots = {(s.rel, s.temporal): score for s, score in scores}
        return AskReading(masked, slots, self.time_words.log_odds(masked), vec)

    def shared_cues(self, catalog: RelationCatalog) -> SharedCues:
        """``catalog.shared_cues`` over this bank's wordings, worked out once (one scorer
        serves every user of a process)."""
        if self._shared is None or self._shared[0] is not catalog:
            wordings: dict[str, list[str]] = {}
            for slot in self.slots:
                wordings.setdefault(slot.rel, []).extend(slot.wordings)
            self._shared = (catalog, catalog.shared_cues(wordings))
        return self._shared[1]

    def offsets(self, catalog: RelationCatalog) -> dict[str, float]:
        """Relation -> how much higher its meaning floor stands (``choose.meaning``), worked
        out once from the bank itself.

        A relation's background is how close the wordings of the other relations about the
        same kind of subject come to it, on average (each wording's best cosine to it). One
        whose wordings name many things ("what was [Patient] on before [Compound]?") is close
        to every question about a patient, so its cosine says less; its offset is its
        background less the mean background of its subject's relations (offsets of one
        subject's relations sum to 0)."""
        if self._offsets is None or self._offsets[0] is not catalog:
            self._offsets = (catalog, self._calibrate(catalog) if self.slots else {})
        return self._offsets[1]

    def _calibrate(self, catalog: RelationCatalog) -> dict[str, float]:
        bank = self._bank()
        rel_of = np.asarray([self.slots[i].rel for i in self._owner])
        background: dict[str, float] = {}
        for name, spec in catalog.relations.items():
            mine = rel_of == name
            peers = [r for r, s in catalog.relations.items() if s.subject == spec.subject]
            others = np.isin(rel_of, peers) & ~mine
            if not mine.any() or not others.any():
                continue
            best = (bank[others] @ bank[mine].T).max(axis=1)
            background[name] = float(best.mean())
        out: dict[str, float] = {}
        for name, spec in catalog.relations.items():
            group = [
                background[r]
                for r, s in catalog.relations.items()
                if s.subject == spec.subject and r in background
            ]
            if name in background and len(group) > 1:
                out[name] = background[name] - sum(group) / len(group)
        return out

    def stops(self, masked: str) -> bool:
        """Whether a statement about a medication ("held his [Compound]") reads as stopping it
        rather than starting or giving it: its best cosine to the bank's ``takes.stop``
        wordings beats its best to ``takes.start`` by more than the margin that best tells the
        bank's own stop and start wordings apart (``_separating``: calibrated on the bank)."""
        a, b, floor = self._stops()
        if not len(a):
            return False
        vec = np.asarray(self._embed([masked]), dtype=np.float32)[0]
        return float((a @ vec).max() - (b @ vec).max()) > max(floor, 0.0)

    def graph_read(self, reading: AskReading, kind: str) -> dict[str, float]:
        """Best cosine of the read question to each knowledge-graph one-hop slot given
        ``kind`` (the engine's bank, ``engine.understand.bank``): what the question would
        ask of the graph about an entity of that kind. Embedded on first use per kind."""
        if reading.vector is None:
            return {}
        ids, owner, matrix = self._graph_bank(kind)
        if matrix is None:
            return {}
        best = np.full(len(ids), -1.0, dtype=np.float32)
        np.maximum.at(best, owner, matrix @ reading.vector)
        return dict(zip(ids, best.tolist(), strict=True))

    def _stops(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], float]:
        """The stop and start statement wordings' vectors and the margin between them."""
        if self._stop is None:
            said = load_said()
            stop, start = said.get("takes.stop", ()), said.get("takes.start", ())
            if not stop or not start:
                self._stop = (np.zeros((0, 1), np.float32), np.zeros((0, 1), np.float32), 1.0)
            else:
                a = np.asarray(self._embed(list(stop)), dtype=np.float32)
                b = np.asarray(self._embed(list(start)), dtype=np.float32)
                self._stop = (a, b, _separating(a, b))
        return self._stop

    def _graph_bank(
        self, kind: str
    ) -> tuple[list[str], npt.NDArray[np.int_], npt.NDArray[np.float32] | None]:
        """The engine bank's one-hop slots given ``kind``: their ids, each wording's slot and
        the wordings' vectors (None without any)."""
        if kind not in self._graph:
            slots = [s for s in _one_hop_slots() if s.given == kind]
            texts = [w for s in slots for w in s.wordings]
            owner = np.asarray([i for i, s in enumerate(slots) for _ in s.wordings])
            matrix = np.asarray(self._embed(texts), dtype=np.float32) if texts else None
            self._graph[kind] = ([s.id for s in slots], owner, matrix)
        return self._graph[kind]

    def prepare(self) -> None:
        """Embed now every bank this scorer would embed at its first use: its own wordings,
        the stop and start statement wordings and the graph's one-hop wordings of each kind.
        Through an engine's ``embed`` the large ones are kept under the stores directory, so
        run right after ingest (``wiring.open.prepare``), no user's first question embeds
        them (the memory bank alone: about 6 s on two cores)."""
        if not self.slots:
            return
        self._bank()
        self._stops()
        for kind in sorted({s.given for s in _one_hop_slots() if s.given}):
            self._graph_bank(kind)
