"""Fixtures shared by every test folder (the shared helpers are in tests/helpers/)."""
