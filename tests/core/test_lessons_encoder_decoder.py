"""What the encoder-decoder page computes (mha_core.encdec_view), against the model's own forward
and torch's modules on the same weights."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from mha_core import EncoderDecoder, EncoderDecoderConfig, embed_tokens, padding_mask
from mha_core.lessons.encoder_decoder import dropout_comparison, padded_batch, pair_attention
from tests.helpers.numeric import assert_close_f32

SRC = ["the", "cat", "saw", "the", "dog"]
TGT = ["le", "chat", "a", "vu"]


def _model(**kw):
    """A small seeded encoder-decoder on vectors (keywords replace these settings), eval mode."""
    settings = dict(norm_first=False, n_layers=2, d_model=16, n_heads=4, seed=3) | kw
    return EncoderDecoder(EncoderDecoderConfig.vectors_in(**settings)).eval()


def test_pair_attention_is_the_models_forward_and_the_mask_is_causal():
    m = _model()
    pa = pair_attention(m, SRC, TGT)
    with torch.no_grad():
        tr = m.forward_embeddings(
            embed_tokens(SRC, 16, 3, positional=True)[None],
            embed_tokens(TGT, 16, 3, positional=True)[None],
        )
    for layer in range(2):
        assert torch.equal(pa.encoder_self[layer], tr.encoder_self[layer].weights[0])
        assert torch.equal(pa.decoder_self[layer], tr.decoder_self[layer].weights[0])
        assert torch.equal(pa.decoder_cross[layer], tr.decoder_cross[layer].weights[0])
        assert pa.above_diagonal_max(layer) == 0.0
        lo, hi = pa.row_sum_range("decoder_cross", layer)
        assert abs(lo - 1) < 1e-6 and abs(hi - 1) < 1e-6
    assert pa.decoder_cross.shape == (2, 4, 4, 5)  # (L, nh, T, S)
    assert torch.equal(pa.causal, torch.ones(4, 4, dtype=torch.bool).tril())


def test_batch_view_padding_empty_rows_and_norms():
    m = _model(norm_first=True)
    short = SRC[:2]
    bv = padded_batch(m, [SRC, short], 1)
    assert bv.n_padded == 3 and bv.padded_key_max == 0.0
    assert bv.alone_max_diff < 1e-6  # padding changes nothing for the real tokens
    # padded queries masked too: 3 padded queries x 4 heads with no key, zeros, no NaN
    assert int(bv.empty_rows.sum()) == 12 and bv.plain_softmax_nan_rows == 12
    assert bv.nan_count == 0 and bv.empty_row_max == 0.0
    assert bv.real_rows(bv.residual).shape == (7, 16)
    assert bv.row_labels[5] == (1, "the")
    # torch's own attention, same weights, same masks: NaN on those rows (ours: 0)
    ref = torch.nn.MultiheadAttention(16, 4, batch_first=True).eval()
    ref.load_state_dict(m.encoder_layers[1].self_attn.state_dict())
    x = torch.zeros(2, 5, 16)
    x[0], x[1, :2] = (
        embed_tokens(SRC, 16, 3, positional=True),
        embed_tokens(short, 16, 3, positional=True),
    )
    pad = padding_mask([5, 2], 5)
    with torch.no_grad():
        tr = m.encode(x, src_key_padding_mask=pad).layers[1]
        h = tr.attn_in
        _, w = ref(h, h, h, key_padding_mask=pad, average_attn_weights=False)
    assert_close_f32(bv.weights, w)
    # the model's LayerNorm (norm2 in pre-norm) and F.layer_norm / F.batch_norm on real tokens
    real = bv.real_rows(bv.residual).double()
    assert_close_f32(bv.real_rows(bv.norms.layer_normed), F.layer_norm(real, (16,)))
    ref_bn = F.batch_norm(real, None, None, training=True, eps=1e-5)
    assert_close_f32(bv.real_rows(bv.norms.batch_normed), ref_bn)
    assert bv.model_norm_max_diff < 1e-5
    # statistics of the outputs: LayerNorm's rows and BatchNorm's columns are (0, 1)
    assert bv.real_rows(bv.layer_out.layer_mean).abs().max() < 1e-6
    assert bv.batch_out.batch_mean.abs().max() < 1e-6
    assert (bv.batch_out.batch_std - 1).abs().max() < 1e-3


def test_dropout_view_scales_kept_weights_and_eval_is_identity():
    w = torch.softmax(torch.randn(6, 6, generator=torch.Generator().manual_seed(0)), dim=-1)
    dv = dropout_comparison(w, 0.25, seed=4)
    assert torch.equal(dv.eval.output, w)
    lo, hi = dv.kept_ratio_range()
    assert abs(lo - 4 / 3) < 1e-6 and abs(hi - 4 / 3) < 1e-6
    assert dv.n_dropped == int((dv.train.output == 0).sum()) and dv.n_total == 36
    assert torch.equal(dropout_comparison(w, 0.25, seed=4).train.output, dv.train.output)  # seeded
    assert not torch.equal(dropout_comparison(w, 0.25, seed=5).train.keep, dv.train.keep)
