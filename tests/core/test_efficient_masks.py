"""Window, sink and global masks; the receptive field composed layer by layer against the
closed form L (w - 1)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core.efficient import attention_mask, receptive_field, sliding_window_mask, window_reach


def _window_reference(t, w):
    return torch.tensor([[0 <= i - j < w for j in range(t)] for i in range(t)])


@pytest.mark.parametrize("t,w", [(1, 1), (6, 1), (6, 3), (8, 8), (5, 10)])
def test_sliding_window_is_the_last_w_tokens(t, w):
    m = sliding_window_mask(t, w)
    assert torch.equal(m, _window_reference(t, w))
    assert int(m[-1].sum()) == min(t, w)


def test_sinks_and_global_tokens():
    m = attention_mask(10, window=3, n_sinks=2)
    for i in range(10):
        visible = {j for j in range(10) if m[i, j]}
        assert visible == {j for j in range(i + 1) if j < 2 or i - j < 3}
    g = attention_mask(10, window=2, global_tokens=[4])
    assert g[9, 4] and not g[3, 4]  # seen by every later token, never by an earlier one
    assert g[4, :5].all()  # sees every earlier token
    assert not g[8, 5]
    bidirectional = attention_mask(10, window=2, global_tokens=[4], causal=False)
    assert bidirectional[0, 4] and bidirectional[4].all()
    assert torch.equal(attention_mask(5), torch.ones(5, 5, dtype=torch.bool).tril())
    with pytest.raises(ValueError):
        attention_mask(5, global_tokens=[5])


@settings(max_examples=40, deadline=None)
@given(w=st.integers(1, 6), n_layers=st.integers(1, 5), extra=st.integers(0, 10))
def test_receptive_field_matches_closed_form(w, n_layers, extra):
    t = window_reach(w, n_layers) + 1 + extra  # long enough to see the whole reach
    rf = receptive_field(sliding_window_mask(t, w), n_layers)
    assert rf.farthest_back == tuple(window_reach(w, layer) for layer in range(1, n_layers + 1))
    # exactly the tokens i - L(w-1) .. i, for every query far enough from the start
    reach = rf.reach[-1]
    r = window_reach(w, n_layers)
    for i in range(t):
        assert {j for j in range(t) if reach[i, j]} == set(range(max(0, i - r), i + 1))


def test_receptive_field_is_capped_by_the_sentence():
    rf = receptive_field(sliding_window_mask(6, 3), 4)
    assert rf.farthest_back == (2, 4, 5, 5)
    assert rf.visible == (3, 5, 6, 6)


def test_a_sink_lets_the_first_token_reach_everyone_in_one_layer():
    rf = receptive_field(attention_mask(20, window=2, n_sinks=1), 1)
    assert rf.reach[0, :, 0].all()
    assert rf.farthest_back == (19,)  # counting the sink itself


def test_a_sink_relays_nothing_under_the_causal_mask():
    """Window 3, one sink: token 19 reaches {0, 15..19} after 2 layers. The sink sees only
    itself, so apart from it the reach is the window's L(w - 1), not 19."""
    rf = receptive_field(attention_mask(20, window=3, n_sinks=1), 2, special=[0])
    assert rf.reach[1, 19].nonzero().flatten().tolist() == [0, 15, 16, 17, 18, 19]
    assert rf.farthest_back == (2, 4) == tuple(window_reach(3, n) for n in (1, 2))
    assert rf.visible == (4, 6)


def test_a_global_token_relays_the_tokens_before_it_one_layer_later():
    rf = receptive_field(attention_mask(20, window=3, global_tokens=[10]), 2, special=[10])
    assert rf.reach[0, 10].nonzero().flatten().tolist() == list(range(11))  # sees 0..10
    assert rf.reach[0, 19].nonzero().flatten().tolist() == [10, 17, 18, 19]
    assert rf.reach[1, 19].nonzero().flatten().tolist() == [*range(11), 15, 16, 17, 18, 19]
    # layer 1: the global token itself looks 10 back; layer 2: token 19 holds token 0
    assert rf.farthest_back == (10, 19)
    # a token before the global one gets nothing through it (the causal mask)
    assert not rf.reach[1, 9, 10:].any()


def test_mistral_published_example():
    # Jiang et al. 2023: window 4,096 x 32 layers, "about 131K tokens"
    assert window_reach(4096, 32) == 131040
    assert round(window_reach(4096, 32) / 1000) == 131
