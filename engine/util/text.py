"""Small text helpers shared by linking, ranking and memory."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_USER_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


def normalize(text: str) -> str:
    """Lower-case, strip accents, unify quotes/dashes and collapse whitespace."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-")
    text = text.replace("\u2014", "-").lower()
    return _WS.sub(" ", text).strip()


def strip_suffix(word: str, suffixes: tuple[str, ...], keep: int = 3) -> str:
    """``word`` without the first of ``suffixes`` it ends with, when at least ``keep`` letters
    stay: a crude stem ("resembling" -> "resembl")."""
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[: -len(suffix)]
    return word


def alias_key(text: str) -> str:
    """Key used for exact alias lookup: normalized, punctuation folded to spaces."""
    t = normalize(text)
    t = re.sub(r"[^a-z0-9]+", " ", t)
    return _WS.sub(" ", t).strip()


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalize(text))


_LETTERS = re.compile(r"[^\W_]+")


def lower_words(text: str) -> list[str]:
    """The runs of letters and digits of ``text``, lower-cased ("isn't" -> "isn", "t")."""
    return [w.lower() for w in _LETTERS.findall(text)]


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (``\\ud800``): not valid Unicode, so neither
    UTF-8 files nor DuckDB/SQLite can keep it."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def question_problem(question: str, max_chars: int) -> str | None:
    """Why ``question`` cannot be asked (one sentence with the fix), or None when it can:
    empty, longer than ``max_chars``, not valid Unicode, or binary/control characters."""
    if not question.strip():
        return "The question is empty. Ask about a drug, disease, gene or symptom."
    if len(question) > max_chars:
        return (
            f"The question is {len(question):,} characters long; the limit is "
            f"{max_chars:,}. Please shorten it."
        )
    if has_lone_surrogate(question):
        return (
            "The question contains text that is not valid Unicode (a lone surrogate such as "
            "\\ud800); please send it as UTF-8 text."
        )
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in question)
    if "\x00" in question or printable < 0.9 * len(question):
        return "The question contains binary or control characters; please send plain text."
    return None


MAX_USER_CHARS = 200


def user_id_problem(
    user: str, fix: str = "give a name such as --user alice (or set HELIX_USER)"
) -> str | None:
    """Why ``user`` cannot name a user (one sentence ending in ``fix``, how the caller takes
    a name), or None when it can."""
    if not user.strip():
        return f"the user id is empty; {fix}"
    if has_lone_surrogate(user):
        return f"the user id {user!r} is not valid UTF-8; {fix}"
    if any(not ch.isprintable() for ch in user):
        return f"the user id {user!r} contains control characters; {fix}"
    if len(user) > MAX_USER_CHARS:
        return f"the user id is {len(user)} characters long (limit {MAX_USER_CHARS}); {fix}"
    return None


def safe_user_id(user: str) -> str:
    """A file-system-safe, collision-free directory name for a user id: its safe characters
    (for people reading the directory) and the full SHA-1 of the id (what keeps two ids apart:
    ``dr$%]#`` and ``dr&;[[`` clean to the same ``dr____``)."""
    return f"{_cleaned(user)}-{_sha1(user)}"


def legacy_user_id(user: str) -> str:
    """The directory name ids had before the full hash: 32 bits of it, which two crafted ids
    can share (``Settings.user_dir`` and the ``m002_full_user_ids`` migration move them)."""
    return f"{_cleaned(user)}-{_sha1(user)[:8]}"


def _cleaned(user: str) -> str:
    return _USER_SAFE.sub("_", user)[:48] or "user"


def _sha1(user: str) -> str:
    return hashlib.sha1(user.encode("utf-8", "surrogatepass")).hexdigest()


def content_hash(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()
