"""ui.state's URL mirror on its own: parsing, rejection, the round trip."""

from __future__ import annotations

import pytest

from ui import state


def test_round_trip_of_every_setting():
    s = state.Settings(**{**state.DEFAULTS, "d_model": 96, "n_heads": 12, "mask": "causal"})
    values, rejected = state.parse_query_params(state.to_query_params(s))
    assert rejected == []
    assert state.Settings(**{**state.DEFAULTS, **values}) == s


@pytest.mark.parametrize(
    "name,raw",
    [
        ("d_model", "10"),  # not one of the offered sizes
        ("d_model", "-4"),
        ("n_heads", "0"),
        ("n_heads", "17"),
        ("seed", "1e9"),
        ("seed", "1000001"),
        ("positional", "maybe"),
        ("mask", "<b>causal</b>"),
        ("scoring", "dot "),
        ("tokenizer", "bpe"),
        ("lang", "fr"),
    ],
)
def test_invalid_values_are_rejected_by_name(name, raw):
    values, rejected = state.parse_query_params({name: raw})
    assert rejected == [name] and name not in values


def test_heads_must_divide_the_linked_d_model():
    values, rejected = state.parse_query_params({"d_model": "96", "n_heads": "5"})
    assert values == {"d_model": 96} and rejected == ["n_heads"]
    values, rejected = state.parse_query_params({"d_model": "96", "n_heads": "12"})
    assert values == {"d_model": 96, "n_heads": 12} and rejected == []


def test_long_text_is_cut_and_not_mirrored():
    values, _ = state.parse_query_params({"text": "x" * (state.MAX_CHARS + 5)})
    assert len(values["text"]) == state.MAX_CHARS
    long = state.Settings(**{**state.DEFAULTS, "text": "y" * (state.URL_TEXT_CHARS + 1)})
    assert "text" not in state.to_query_params(long)
