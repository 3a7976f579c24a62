"""One real head step by step (`mha_core.llm.head_steps`) against the model's own trace: each
recomputed step equals what the forward computed (the attention row within 1e-5), RoPE turns
each pair by its position, the heads' slices of W_O add up to the attention's output."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mha_core.llm import head_steps
from tests.core.test_llm import long_ids

CASES = [(0, 0, 0), (0, 8, 5), (15, 4, -1), (29, 7, 12), (18, 6, -1)]


@pytest.fixture(scope="module")
def ids(llm):
    return llm.chat_ids("The cat sat on the mat because it was tired. Why?")


@pytest.mark.parametrize(("layer", "head", "query"), CASES)
def test_every_step_equals_the_trace(llm, ids, layer, head, query):
    query = query % len(ids)
    tr = llm.trace(ids, layers=[layer])
    s = head_steps(llm, tr, layer, head, query)
    att = tr.layers[layer].attn
    for step, diff in s.checks.items():
        # the sum over the nine heads is of the stream's size (up to ~10 in the last layers)
        bound = 1e-5 * max(1.0, float(att.output.abs().max())) if step == "heads_sum" else 1e-5
        assert diff <= bound, (step, diff)
    np.testing.assert_allclose(s.weights, tr.attentions[layer, head, query].numpy(), atol=1e-5)
    g = head // (llm.config.n_heads // llm.config.n_kv_heads)
    assert s.kv_head == g
    np.testing.assert_allclose(s.q_rot, att.q[0, head, query].numpy(), atol=1e-5)
    np.testing.assert_allclose(s.k_rot[: query + 1], att.k[0, g, : query + 1].numpy(), atol=1e-5)
    np.testing.assert_allclose(s.output, att.head_outputs[0, head, query].numpy(), atol=1e-5)
    np.testing.assert_allclose(s.normed, tr.layers[layer].normed[query].numpy(), atol=1e-5)


def test_the_steps_follow_one_another(llm, ids):
    layer, head, query = 15, 2, 10
    s = head_steps(llm, llm.trace(ids, layers=[layer]), layer, head, query)
    cfg = llm.config
    x = torch.from_numpy(s.x)
    rms = torch.sqrt(x.pow(2).mean() + cfg.rms_eps)
    np.testing.assert_allclose(s.inv_rms, float(1 / rms), rtol=1e-6)
    np.testing.assert_allclose(s.normed, s.gain * s.x * s.inv_rms, atol=1e-6)
    assert s.scale == 1 / 8  # sqrt(64)
    # the mask: keys after the query are not allowed and get weight exactly 0
    assert s.allowed.tolist() == [j <= query for j in range(len(ids))]
    assert (s.weights[query + 1 :] == 0).all()
    assert s.weights.sum() == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(s.scores, s.k_rot @ s.q_rot / 8, rtol=1e-5, atol=1e-5)
    w = np.exp(s.scores[: query + 1] - s.scores[: query + 1].max())
    np.testing.assert_allclose(s.weights[: query + 1], w / w.sum(), atol=1e-6)
    np.testing.assert_allclose(s.output, s.weights @ s.v, atol=1e-5)
    np.testing.assert_allclose(s.added, s.w_o @ s.output, atol=1e-5)
    assert s.w_o.shape == (cfg.d_model, cfg.head_size)


def test_rope_turns_each_pair_by_its_position(llm, ids):
    layer, head, query = 3, 1, 9
    s = head_steps(llm, llm.trace(ids, layers=[layer]), layer, head, query)
    for i in (0, 5, 31):
        p = s.pair(i)
        assert p.frequency == pytest.approx(100000.0 ** (-2 * i / 64), rel=1e-6)
        for before, after, angle in ((p.q, p.q_rot, p.q_angle), (p.k, p.k_rot, p.k_angle)):
            c, sn = np.cos(angle), np.sin(angle)
            turned = np.array([c * before[0] - sn * before[1], sn * before[0] + c * before[1]])
            np.testing.assert_allclose(after, turned, atol=1e-5)
            assert np.linalg.norm(after) == pytest.approx(np.linalg.norm(before), rel=1e-5)
        # the pair's dot product depends on the offset only: turning both back by the key's
        # angle gives the same product
        offset = p.q_angle - p.k_angle
        c, sn = np.cos(offset), np.sin(offset)
        q_rel = np.array([c * p.q[0] - sn * p.q[1], sn * p.q[0] + c * p.q[1]])
        assert float(p.q_rot @ p.k_rot) == pytest.approx(float(q_rel @ p.k), abs=1e-5)
        assert p.key == 1 + int(np.argmax(s.weights[1 : query + 1]))  # not position 0
        assert s.pair(i, key=0).k_angle == 0.0  # position 0: not turned
    with pytest.raises(ValueError, match="pair"):
        s.pair(32)
    with pytest.raises(ValueError, match="key must be in 0 .. 9"):
        s.pair(0, key=10)


def test_a_512_token_text(llm):
    ids = long_ids(llm, 512)
    layer, head, query = 18, 6, 511
    tr = llm.trace(ids, layers=[layer], rows=[query], residual=False)
    s = head_steps(llm, tr, layer, head, query)
    assert max(v for k, v in s.checks.items() if k != "heads_sum") <= 1e-5, s.checks
    assert s.k.shape == (512, 64)


def test_bad_choices_are_explained(llm, ids):
    tr = llm.trace(ids, layers=[2], rows=[3], residual=False)
    with pytest.raises(ValueError, match="layer must be in 0 .. 29"):
        head_steps(llm, tr, 30, 0, 0)
    with pytest.raises(ValueError, match="head must be in 0 .. 8"):
        head_steps(llm, tr, 2, 9, 0)
    with pytest.raises(ValueError, match="query must be in"):
        head_steps(llm, tr, 2, 0, len(ids))
    with pytest.raises(ValueError, match="did not keep layer 5"):
        head_steps(llm, tr, 5, 0, 3)
    with pytest.raises(ValueError, match="did not keep row 4"):
        head_steps(llm, tr, 2, 0, 4)


def test_the_trace_keeps_head_outputs_at_its_rows_and_attribution_reads_them(llm, ids):
    from mha_core.llm import head_attribution

    full = llm.trace(ids)
    for layer in (0, 17, 29):
        np.testing.assert_array_equal(
            full.head_outputs[layer], full.layers[layer].attn.head_outputs[0]
        )
    light = llm.trace(ids, layers=(), rows=[7, len(ids) - 1])
    np.testing.assert_array_equal(light.head_outputs[:, :, 1], full.head_outputs[:, :, -1])
    a, b = head_attribution(llm, full, -1), head_attribution(llm, light, -1)
    np.testing.assert_allclose(b.heads, a.heads, atol=1e-5)
    assert b.token == a.token and abs(b.total() - b.logit) <= 1e-3 * abs(b.logit)
    with pytest.raises(ValueError, match="kept the position's row"):
        head_attribution(llm, light, 3)
    with pytest.raises(ValueError, match="residual=True"):
        head_attribution(llm, llm.trace(ids, layers=(), residual=False), -1)
