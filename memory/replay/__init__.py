"""Replays of ``*.replay.jsonl`` memory streams (format: ``../shared/bench/README.md``).

One core for every front end: ``events`` (the event model, loading and validation, what a
``say`` event stores), ``score`` (Memory Recall@1 and the one definition of a cross-user leak)
and ``run`` (the headless run of ``helix-chat --replay``). Time follows the events through
``memory.clock.SimulatedClock``. The chat app plays the same events on screen
(``helix_tui/replay.py``) and scores them with the same ``ReplayScore``.

Nothing is imported here, so the app can load ``events`` and ``score`` without the stores.
"""
