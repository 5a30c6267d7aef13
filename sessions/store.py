"""Chat sessions and their turns, one SQLite file per user (``sessions.sqlite``), or the
user's rows of ``helix_sessions`` in PostgreSQL when ``HELIX_DATABASE_URL`` is set.

The TUI lists, resumes, renames, deletes and exports sessions through ``SessionStore``; each
turn keeps the question and the full ``Result`` (JSON). Schema changes are named migrations
recorded in ``_migrations``.
"""

from __future__ import annotations

import builtins
import re
import threading
import uuid
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.config import Settings
from engine.graph.relations import triple_text
from engine.result import Result
from engine.util.text import has_lone_surrogate
from memory.clock import Clock, SystemClock, iso, parse_instant
from memory.migrate import Migrations
from memory.store.rows import SqliteRows, open_rows
from sessions.hits import HIT_SQL, TurnHit, fts_words, hit_from_row

SESSIONS_FILE = "sessions.sqlite"


class HistoryUnavailable(RuntimeError):
    """History search was asked of a back end that has no full-text index for it."""


DEFAULT_TITLE = "New chat"
MIGRATIONS = Migrations("sessions")


@MIGRATIONS.register
def m001_initial(db: Any) -> None:
    db.execute(
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL)"""
    )
    db.execute(
        """CREATE TABLE turns (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            question TEXT NOT NULL, result TEXT NOT NULL, created_at TEXT NOT NULL)"""
    )
    db.execute("CREATE INDEX turns_session ON turns (session_id, id)")
    db.execute("CREATE INDEX sessions_updated ON sessions (updated_at)")


@MIGRATIONS.register
def m002_auto_title(db: Any) -> None:
    """Remember whether a title was chosen by the user (auto titles follow the first turn)."""
    db.execute("ALTER TABLE sessions ADD COLUMN auto_title INTEGER NOT NULL DEFAULT 0")


_FTS_ANSWER = (
    "coalesce(json_extract({r}, '$.text'), '') || ' ' || coalesce((SELECT "
    "group_concat(json_extract(value, '$.name'), ' ') FROM json_each({r}, '$.answers')), '')"
)


@MIGRATIONS.register
def m003_turns_fts(db: Any) -> None:
    """Full-text index (FTS5) of each turn's question and answer, kept by triggers, for
    searching a user's history across sessions."""
    db.execute(
        "CREATE VIRTUAL TABLE turns_fts USING fts5(question, answer, "
        "tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    answer = _FTS_ANSWER.format(r="new.result")
    db.execute(
        "CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN "
        f"INSERT INTO turns_fts (rowid, question, answer) VALUES (new.id, new.question, {answer}); "
        "END"
    )
    db.execute(
        "CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN "
        "DELETE FROM turns_fts WHERE rowid = old.id; END"
    )
    db.execute(
        "INSERT INTO turns_fts (rowid, question, answer) "
        f"SELECT id, question, {_FTS_ANSWER.format(r='result')} FROM turns"
    )


@dataclass(frozen=True)
class SessionInfo:
    id: str
    user: str
    title: str
    created_at: datetime
    updated_at: datetime
    n_turns: int


@dataclass(frozen=True)
class Turn:
    id: int
    session_id: str
    question: str
    result: Result
    created_at: datetime


_INFO_SQL = (
    "SELECT s.id, s.title, s.created_at, s.updated_at, "
    "(SELECT count(*) FROM turns t WHERE t.session_id = s.id) FROM sessions s"
)


class SessionStore:
    """One user's chat sessions."""

    def __init__(self, settings: Settings, user: str, clock: Clock | None = None) -> None:
        self.user = user
        self._clock = clock or SystemClock()
        self.path = settings.user_dir(user) / SESSIONS_FILE
        self._rows = open_rows(
            settings, user, self._clock, file=SESSIONS_FILE, migrations=MIGRATIONS
        )
        self._lock = threading.RLock()  # the TUI calls from worker threads as well

    def create(self, title: str | None = None, session_id: str | None = None) -> SessionInfo:
        with self._lock:
            now = iso(self._clock.now())
            sid = session_id or uuid.uuid4().hex[:12]
            with self._rows.conn() as db:
                db.execute(
                    "INSERT INTO sessions (id, title, created_at, updated_at, auto_title) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (sid, storable(title or DEFAULT_TITLE), now, now, int(title is None)),
                )
            info = self.get(sid)
            assert info is not None
            return info

    def list(self) -> builtins.list[SessionInfo]:
        """All sessions, most recently updated first."""
        with self._lock, self._rows.conn() as db:
            rows = db.execute(f"{_INFO_SQL} ORDER BY s.updated_at DESC, s.rowid DESC")
            return [self._info(r) for r in rows.fetchall()]

    def get(self, session_id: str) -> SessionInfo | None:
        with self._lock, self._rows.conn() as db:
            row = db.execute(f"{_INFO_SQL} WHERE s.id = ?", (session_id,)).fetchone()
            return self._info(row) if row else None

    def latest(self) -> SessionInfo | None:
        sessions = self.list()
        return sessions[0] if sessions else None

    def rename(self, session_id: str, title: str) -> None:
        with self._lock, self._rows.conn() as db:
            cur = db.execute(
                "UPDATE sessions SET title = ?, auto_title = 0 WHERE id = ?", (title, session_id)
            )
            if cur.rowcount == 0:
                raise KeyError(session_id)

    def delete(self, session_id: str) -> None:
        with self._lock, self._rows.conn() as db:
            db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def add_turn(self, session_id: str, question: str, result: Result) -> Turn:
        """Append a turn (creating the session if needed); the first turn titles the session.
        Text that is not valid Unicode (a lone surrogate the engine refused) is kept with
        U+FFFD in its place (SQLite and PostgreSQL take only valid UTF-8), a NUL as ␀."""
        question = storable(question)
        if storable(result.question or "") != (result.question or ""):
            result = result.model_copy(update={"question": storable(result.question or "")})
        with self._lock:
            now = self._clock.now()
            with self._rows.tx() as db:
                exists = db.execute(
                    "SELECT auto_title FROM sessions WHERE id = ?", (session_id,)
                ).fetchone()
                if exists is None:
                    db.execute(
                        "INSERT INTO sessions (id, title, created_at, updated_at, auto_title) "
                        "VALUES (?, ?, ?, ?, 1)",
                        (session_id, DEFAULT_TITLE, iso(now), iso(now)),
                    )
                row = db.execute(
                    "INSERT INTO turns (session_id, question, result, created_at) "
                    "VALUES (?, ?, ?, ?) RETURNING id",
                    (session_id, question, result.model_dump_json(), iso(now)),
                ).fetchone()
                db.execute(
                    "UPDATE sessions SET updated_at = ?, title = CASE WHEN auto_title = 1 AND "
                    "title = ? THEN ? ELSE title END WHERE id = ?",
                    (iso(now), DEFAULT_TITLE, _title_from(question), session_id),
                )
            return Turn(int(row[0]), session_id, question, result, now)

    def turns(self, session_id: str) -> builtins.list[Turn]:
        with self._lock, self._rows.conn() as db:
            rows = db.execute(
                "SELECT id, session_id, question, result, created_at FROM turns "
                "WHERE session_id = ? ORDER BY id",
                (session_id,),
            ).fetchall()
            return [
                Turn(int(r[0]), r[1], r[2], Result.model_validate_json(r[3]), parse_instant(r[4]))
                for r in rows
            ]

    def search_turns(self, query: str, limit: int = 20) -> builtins.list[TurnHit]:
        """This user's turns whose question or answer contains the words of ``query`` (all of
        them first, then any), best first. Punctuation and FTS syntax in ``query`` are ignored."""
        words = fts_words(query)
        if not words:
            return []
        sql = (
            HIT_SQL.format(
                snippet="snippet(turns_fts, -1, '«', '»', '…', 10)", score="-bm25(turns_fts)"
            )
            + " JOIN turns_fts ON turns_fts.rowid = t.id WHERE turns_fts MATCH ? "
            + ("ORDER BY bm25(turns_fts), t.id DESC LIMIT ?")
        )
        hits: builtins.list[TurnHit] = []
        with self._lock, self._history_db() as db:
            for joiner in (" AND ", " OR "):
                match = joiner.join(f'"{w}"*' for w in words)
                for row in db.execute(sql, (match, limit)).fetchall():
                    if len(hits) < limit and all(h.turn_id != row[0] for h in hits):
                        hits.append(hit_from_row(row))
                if len(words) == 1:
                    break
        return hits

    def recent_turns(self, limit: int = 500) -> builtins.list[TurnHit]:
        """The latest ``limit`` turns as hits (score 0), newest first: what a meaning search
        over the history compares the query with."""
        sql = (
            HIT_SQL.format(snippet=_FTS_ANSWER.format(r="t.result"), score="0.0")
            + " ORDER BY t.id DESC LIMIT ?"
        )
        with self._lock, self._history_db() as db:
            return [hit_from_row(r) for r in db.execute(sql, (limit,)).fetchall()]

    def _history_db(self) -> AbstractContextManager[Any]:
        """The connection history search runs on: its full-text index (FTS5) and JSON
        functions are SQLite's, so it needs the file back end."""
        if not isinstance(self._rows, SqliteRows):
            raise HistoryUnavailable(
                "history search needs the file back end; it is not available yet with "
                "HELIX_DATABASE_URL (PostgreSQL)"
            )
        return self._rows.conn()

    def export_markdown(self, session_id: str) -> str:
        info = self.get(session_id)
        if info is None:
            raise KeyError(session_id)
        lines = [
            f"# {info.title}",
            "",
            f"_Session `{info.id}` of {info.user}, started {_when(info.created_at)}, "
            f"{info.n_turns} turn(s)._",
            "",
        ]
        for n, turn in enumerate(self.turns(session_id), start=1):
            lines += _turn_markdown(n, turn)
        return printable("\n".join(lines).rstrip() + "\n")

    def forget_mentions(self, needles: Iterable[str]) -> int:
        """Delete turns whose question or result mentions any of ``needles``; a session title
        that mentions one goes back to the default title. Returns the turns deleted."""
        with self._lock, self._rows.tx() as db:
            total = 0
            for needle in needles:
                if needle:
                    cur = db.execute(
                        "DELETE FROM turns WHERE instr(lower(question), ?) > 0 OR "
                        "instr(lower(result), ?) > 0",
                        (needle.lower(), needle.lower()),
                    )
                    total += int(cur.rowcount or 0)
                    db.execute(
                        "UPDATE sessions SET title = ?, auto_title = 1 "
                        "WHERE instr(lower(title), ?) > 0",
                        (DEFAULT_TITLE, needle.lower()),
                    )
            return total

    def close(self) -> None:
        with self._lock:
            self._rows.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _info(self, row: Any) -> SessionInfo:
        return SessionInfo(
            row[0], self.user, row[1], parse_instant(row[2]), parse_instant(row[3]), int(row[4])
        )


def storable(text: str) -> str:
    """``text`` as every store takes it: each lone surrogate (``\\ud800``) as U+FFFD, NUL
    (which PostgreSQL text refuses) as its symbol ␀."""
    text = text.replace("\x00", "\u2400")
    if not has_lone_surrogate(text):
        return text
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def mention_scrubber(settings: Settings, user: str, clock: Clock) -> Callable[[list[str]], int]:
    """What ``memory.service.UserMemory.forget`` calls to drop ``user``'s turns mentioning what
    was forgotten (memory never imports sessions; whoever opens both wires them)."""

    def scrub(needles: list[str]) -> int:
        store = SessionStore(settings, user, clock=clock)
        try:
            return store.forget_mentions(needles)
        finally:
            store.close()

    return scrub


def _title_from(question: str, limit: int = 60) -> str:
    text = " ".join(question.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _when(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%d %H:%M UTC")


def _turn_markdown(n: int, turn: Turn) -> builtins.list[str]:
    r = turn.result
    lines = [f"## {n}. {turn.question}", "", f"_{_when(turn.created_at)} · {r.status}_", ""]
    if r.text:
        lines += [r.text, ""]
    if r.answers:
        lines.append("**Answers**")
        lines += [f"- {a.name} (`{a.id}`, {a.score:.2f})" for a in r.answers]
        lines.append("")
    if r.clarification:
        lines += [f"> {r.clarification}", ""]
    evidence = [e for e in r.evidence if e.triple or e.id]
    if evidence:
        names = r.all_names()
        lines.append("**Evidence**")
        for e in evidence:
            what = triple_text(e.triple, lambda n: names.get(n) or n) if e.triple else e.id
            lines.append(f"- {e.kind}: {what or ''}")
        lines.append("")
    return lines


def printable(text: str) -> str:
    """``text`` with control characters other than newline and tab shown as their symbols
    (NUL as ␀, ESC as ␛, DEL as ␡): an export carries no raw terminal escapes."""
    return _CONTROL.sub(_symbol, text)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]")


def _symbol(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"
