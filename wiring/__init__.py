"""Wiring: the one place where the engine and a user's memory are opened (``wiring.open``),
for every front end: the chat app, ``helix-chat ask/eval/--replay``, the MCP server; and
the one turn they all take (``wiring.turn``: note what the user states, ask what they ask).

A layer of its own, between the front ends and ``sessions``: it is the only package that
knows the engine, memory and sessions together (memory's ``forget`` reaches the user's chat
sessions through a hook wired here).
"""
