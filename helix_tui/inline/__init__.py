"""``helix-chat --inline``: the chat as lines in the terminal, on prompt-toolkit (the one
package that imports it), taking the same turn, sessions, memory and clarifications as the
Textual chat (``helix_tui.turns``, ``helix_tui.clarify``, ``helix_tui.session_keeper``)."""
