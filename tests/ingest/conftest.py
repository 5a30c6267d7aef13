"""Fixtures of the layer tests: a Hetionet slice and a home built from it."""

from tests.support.layers import layer_data, layer_settings  # noqa: F401
