"""A drug said as the circumstance of a question: what happened to a patient on it.

"what is 3301 getting with the tamoxifen?", "what's he struggling with on the bisoprolol?",
"any problems since the statin?": the drug is not what is asked for (it follows "on", "with",
"since", "after" or "from" and ends the question), and nothing asks for its amount. Such a
question asks what the drug did to the patient, a side effect, whatever word it uses for it.
Read on the question with its mentions masked by kind (``memory.asks.mask``).
"""

from __future__ import annotations

import re

_DRUG = r"\[(?:Compound|PharmacologicClass)\]"
_CIRCUMSTANCE = re.compile(
    r"\b(?:on|with|since|after|from)\s+(?:starting\s+)?(?:the\s+|his\s+|her\s+|their\s+)?"
    rf"{_DRUG}(?:\s+(?:now|today|recently|lately|again))?\s*\??\s*$",
    re.IGNORECASE,
)
_ASKS_WHAT = re.compile(r"^\s*(?:what|which|any|anything)\b", re.IGNORECASE)
_OTHER_ASK = re.compile(
    r"\b(?:dose|doses|dosing|how much|how often|amount|else|taking|take|takes|using|"
    r"receiving|prescribed|given|before|instead|switched|changed|level|levels)\b",
    re.IGNORECASE,
)
"""Words by which the question asks about the drug itself, or about another drug: its
amount, what is given beside it, what came before it."""


def drug_as_circumstance(masked: str) -> bool:
    """Whether ``masked`` asks what happened to a patient on a drug it ends with."""
    return bool(
        _ASKS_WHAT.search(masked) and _CIRCUMSTANCE.search(masked) and not _OTHER_ASK.search(masked)
    )
