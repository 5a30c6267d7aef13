"""The key bar at the bottom of the chat: Textual's ``Footer``, rebuilt only when what it
shows changes."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's footer rebuilds its keys (a dozen widgets, each styled twice) at every change
    of focus or bindings, even when the keys it shows stay the same: six or seven times while
    the chat starts, about 0.4 s of the UI thread while the engine loads beside it. This one
    rebuilds only when a key, its label, whether it is enabled, or its tooltip changes."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: Hashable | None = None
        self.rebuilds = 0
        """How many times the keys were rebuilt (what the tests count)."""

    def _keys(self) -> Hashable:
        """Everything ``Footer.compose`` reads: the shown bindings and the palette's."""
        app = self.app
        return (
            self._bindings_ready,
            self.show_command_palette and app.ENABLE_COMMAND_PALETTE,
            app.COMMAND_PALETTE_BINDING,
            tuple(
                (
                    key,
                    binding.key,
                    app.get_key_display(binding),
                    binding.action,
                    binding.description,
                    binding.show,
                    binding.tooltip,
                    binding.group,
                    enabled,
                    tooltip,
                )
                for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
                if binding.show or key == app.COMMAND_PALETTE_BINDING
            ),
        )

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        self.rebuilds += 1
        await super().recompose()
