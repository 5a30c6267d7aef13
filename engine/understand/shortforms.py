"""Clinical short forms and lay words (``shortforms.tsv``): what "breast ca", "GERD", "SOB" or
"weight gain" stand for, as names the graph's own alias table then resolves. Read by the
question linker and by memory's statement linker."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.util.text import alias_key, normalize

SHORT_FORMS = Path(__file__).with_name("shortforms.tsv")
"""Clinical short forms and lay words with the names they stand for (data, with its source)."""

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
HOWS = ("word", "case", "after")
SHORT_FORM = "short form"
"""The source of a candidate read through this file (said in the answer: "Reading ...")."""


@dataclass(frozen=True)
class ShortForm:
    tokens: tuple[str, ...]
    """The short form's words as written."""
    expansions: tuple[str, ...]
    """Alias keys of the names it stands for, best first."""
    how: str
    """word | case | after (``shortforms.tsv``)."""

    def reads(self, written: list[str]) -> bool:
        """Whether the words as typed may be read so: a ``case`` form only as written."""
        return self.how == "word" or (self.how == "case" and written == list(self.tokens))


def form_key(text: str) -> str:
    """The alias key of a short form or of the words typed ("Breast  Ca" -> "breast ca")."""
    return " ".join(alias_key(normalize(t)) for t in _TOKEN.findall(text))


@lru_cache(maxsize=2)
def short_forms(path: Path = SHORT_FORMS) -> dict[str, tuple[ShortForm, ...]]:
    """Alias key of a short form -> its readings, from ``path`` (tab-separated: short form,
    names separated by "|", how; "#" starts a comment line)."""
    out: dict[str, list[ShortForm]] = {}
    if not path.is_file():
        return {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        short, names, how = [*line.split("\t"), "", ""][:3]
        if how not in HOWS or not short.strip():
            raise ValueError(f"{path.name}: cannot read {line!r} (short, names, how)")
        form = ShortForm(
            tuple(_TOKEN.findall(short)), tuple(form_key(n) for n in names.split("|") if n), how
        )
        out.setdefault(form_key(short), []).append(form)
    return {k: tuple(v) for k, v in out.items()}


def longest_form() -> int:
    """Words in the longest short form (how far a reader must look)."""
    return max((len(f.tokens) for forms in short_forms().values() for f in forms), default=0)
