"""The key bar at the bottom of the chat: Textual's ``Footer``, rebuilt only when what it
shows changes."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeysFooter(Footer):
    """Textual's footer rebuilds its keys (a dozen widgets, each styled twice) at every change
    of focus or bindings, even when the keys it shows stay the same: six or seven times while
    the chat starts, about 0.4 s of the UI thread while the engine loads beside it. This one
    rebuilds only when a key, its label or its tooltip changes; when only whether keys are
    enabled changes (Esc while a question runs) it marks them so in place."""

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
        if not self._enable_in_place(keys):
            self.rebuilds += 1
            await super().recompose()
        self._shown = keys

    def _enable_in_place(self, keys: Hashable) -> bool:
        """When only whether keys are enabled changed (Esc while a question runs), say so on
        the keys shown, without rebuilding them; False when anything else changed."""
        if not isinstance(keys, tuple) or not isinstance(self._shown, tuple):
            return False
        old, new = self._shown[3], keys[3]
        if self._shown[:3] != keys[:3] or [b[:-2] + b[-1:] for b in old] != [
            b[:-2] + b[-1:] for b in new
        ]:
            return False
        enabled = {(b[1], b[3]): b[-2] for b in new}
        shown = list(self.query(FooterKey))
        if any((k.key, k.action) not in enabled for k in shown):
            return False
        for k in shown:
            on = enabled[(k.key, k.action)]
            k._disabled = not on  # what a click reads (Textual's own flag)
            k.set_class(not on, "-disabled")
        return True
