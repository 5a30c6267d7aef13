"""``helix-chat trace`` over the JSONL export, and the session summary."""

from __future__ import annotations

from click.testing import CliRunner

from engine.config import Settings
from engine.providers.llm import LLMProvider
from engine.telemetry import Tracing, spans_path
from engine.telemetry.store import build_tree, read_spans
from engine.telemetry.summary import MAX_BYTES, archive_session_summary, summarize_session
from helix_tui.cli_trace import coverage_line, trace


def _ask(settings, pipeline, question="Which drugs treat Alzheimer's disease?", scale=1.0):
    tracing = Tracing.from_settings(settings, environ={})
    with tracing.question(question, session="s1") as t:
        result = t.finish(pipeline(question, t.sink, scale=scale))
    tracing.shutdown()
    return result


def test_trace_last_prints_the_tree(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    _ask(settings, pipeline, "first question")
    last = _ask(settings, pipeline, "second question")
    out = CliRunner().invoke(
        trace, ["--last"], env={"HELIX_HOME": str(tmp_path)}, terminal_width=160
    )
    assert out.exit_code == 0, out.output
    assert last.trace_id in out.output and "second question" in out.output
    for label in ("plan", "link", "predict_edges", "walk d=1", "walk d=2", "dense", "fuse",
                  "review", "explain", "memory_read", "memory_write"):  # fmt: skip
        assert label in out.output
    assert "expanded=40" in out.output and "stop_reason=confident" in out.output
    assert "steps " in out.output and "reported latency" in out.output


def test_trace_by_prefix_list_and_errors(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    first = _ask(settings, pipeline, "first question")
    env = {"HELIX_HOME": str(tmp_path)}
    runner = CliRunner()
    by_prefix = runner.invoke(trace, [first.trace_id[:8]], env=env)
    assert by_prefix.exit_code == 0 and "first question" in by_prefix.output
    listed = runner.invoke(trace, ["--list"], env=env)
    assert listed.exit_code == 0 and first.trace_id[:12] in listed.output
    missing = runner.invoke(trace, ["ffffffffffff"], env=env)
    assert missing.exit_code != 0 and "no trace" in missing.output
    empty = runner.invoke(trace, ["--last"], env={"HELIX_HOME": str(tmp_path / "nothing")})
    assert empty.exit_code != 0 and "no traces" in empty.output


def test_trace_uses_settings_from_the_click_context(tmp_path, pipeline):
    settings = Settings(home=tmp_path / "ctx")
    result = _ask(settings, pipeline)
    out = CliRunner().invoke(trace, ["--last"], obj=settings, env={"HELIX_HOME": str(tmp_path)})
    assert out.exit_code == 0 and result.trace_id in out.output


def test_coverage_line_reports_the_share_of_steps(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    result = _ask(settings, pipeline)
    root = build_tree(read_spans(spans_path(settings)), result.trace_id)
    assert coverage_line(root).startswith("steps ")


def test_session_summary_is_short_and_archived(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    ids = [
        _ask(settings, pipeline, f"question {i} " + "x" * 80, scale=0.05).trace_id
        for i in range(40)
    ]
    text = summarize_session(settings, ids, session="s1")
    assert len(text.encode()) <= MAX_BYTES
    assert "Session s1 - 40 question(s)" in text
    assert "ANSWERED x40" in text
    assert "walk" in text and "more" in text  # the question list was cut to fit
    path = archive_session_summary(settings, "s1", ids)
    assert path.parent == tmp_path / "traces" / "sessions"
    assert path.read_text().strip() == text


def test_summary_only_counts_the_given_traces(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    mine = _ask(settings, pipeline, "mine").trace_id
    _ask(settings, pipeline, "someone else's")
    text = summarize_session(settings, [mine])
    assert "1 question(s)" in text and "mine" in text and "someone else" not in text


class _Backend:
    model = "fake"

    def __init__(self, reply):
        self.reply = reply
        self.calls = 0

    def chat(self, messages, *, timeout):
        self.calls += 1
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply

    def close(self):
        return None


def test_summary_with_the_llm_and_its_fallback(tmp_path, pipeline):
    from engine.providers.llm.base import LLMCallError

    settings = Settings(
        home=tmp_path, llm_base_url="http://127.0.0.1:9/v1", llm_model="fake",
        llm_features="summary", llm_retries=0,
    )  # fmt: skip
    ids = [_ask(settings, pipeline).trace_id]
    good = LLMProvider(settings, backend=_Backend('{"text": "One fast question."}'))
    assert summarize_session(settings, ids, llm=good) == "One fast question."
    bad = LLMProvider(settings, backend=_Backend(LLMCallError("http-500")), use_cache=False)
    assert summarize_session(settings, ids, llm=bad).startswith("Session session - 1 question")


def test_trace_through_the_helix_chat_group_honours_home(tmp_path, pipeline):
    from helix_tui.cli import cli

    settings = Settings(home=tmp_path / "elsewhere")
    result = _ask(settings, pipeline, "asked elsewhere")
    out = CliRunner().invoke(
        cli, ["--home", str(settings.home), "trace", "--last"], obj={}, terminal_width=160
    )
    assert out.exit_code == 0, out.output
    assert result.trace_id in out.output and "asked elsewhere" in out.output


def test_one_user_never_sees_another_users_traces(tmp_path, pipeline):
    from helix_tui.cli import cli

    settings = Settings(home=tmp_path, user="alice")
    tracing = Tracing.from_settings(settings, environ={})
    question = "What is MRN 4471 on now? (alice's patient)"
    with tracing.question(question, user="alice") as t:
        mine = t.finish(pipeline(question, t.sink))
    tracing.shutdown()
    home = ["--home", str(tmp_path)]
    alice = CliRunner().invoke(cli, [*home, "--user", "alice", "trace", "--last"], obj={},
                               terminal_width=160)  # fmt: skip
    assert alice.exit_code == 0 and mine.trace_id in alice.output
    for args in (["trace", "--last"], ["trace", "--list"], ["trace", mine.trace_id[:8]]):
        bob = CliRunner().invoke(cli, [*home, "--user", "bob", *args], obj={}, terminal_width=160)
        assert bob.exit_code != 0, bob.output
        assert "MRN 4471" not in bob.output and mine.trace_id not in bob.output
    assert spans_path(settings, "alice").is_relative_to(settings.user_dir("alice"))


def test_a_question_with_lone_surrogates_is_traced_and_readable(tmp_path, pipeline):
    settings = Settings(home=tmp_path)
    result = _ask(settings, pipeline, "bad \ud800 text \udfff?")
    spans = read_spans(spans_path(settings))
    assert result.trace_id in {s.trace_id for s in spans}
    root = build_tree(spans, result.trace_id)
    assert root is not None and "bad" in str(root.span.attributes["helix.question"])
