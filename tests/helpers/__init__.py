"""Helpers the tests share (importable: `from tests.helpers.sequences import ...`)."""
