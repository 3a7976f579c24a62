"""Encoder/decoder layers and the encoder-decoder model against torch's Transformer modules.

References: torch.nn.TransformerEncoderLayer / TransformerDecoderLayer / TransformerEncoder /
TransformerDecoder (same weights, copied by state dict), torch.nn.MultiheadAttention with
need_weights=True for the attention weights, and forward hooks on torch's own sub-modules for
the Add & Norm intermediates.

Fast path: in eval mode with grad off torch may run TransformerEncoderLayer through a fused
kernel, and nn.TransformerEncoder may turn a padded batch into a nested tensor whose padded
positions come back as zeros. The reference comparisons therefore run with the fast path
disabled (`_slow_path`); one test compares against the fast path on real positions only.

Tolerances: different kernels (SDPA vs our matmul + softmax), so relative: rtol=1e-5 and
atol=1e-6 on O(1) values (LayerNorm outputs with random gamma/beta).
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from functools import partial

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from mha_core import (
    DecoderLayer,
    EncoderDecoder,
    EncoderDecoderConfig,
    EncoderLayer,
    embed_tokens,
    greedy_decode,
    padding_mask,
    sinusoidal_encoding,
)

RTOL, ATOL = 1e-5, 1e-6


def close(actual, expected, rtol=RTOL, atol=ATOL):
    torch.testing.assert_close(actual, expected, rtol=rtol, atol=atol)


@contextmanager
def _slow_path():
    old = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        yield
    finally:
        torch.backends.mha.set_fastpath_enabled(old)


@pytest.fixture
def slow_path():
    with _slow_path():
        yield


def _randomise_vectors(module: nn.Module, seed: int) -> None:
    """torch inits biases to 0 and LayerNorm to (1, 0): make them count."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in module.named_parameters():
            if p.dim() == 1:  # LayerNorm gamma around 1, every beta and bias around 0
                centre = 1.0 if name.endswith("weight") else 0.0
                p.copy_(torch.randn(p.shape, generator=g) * 0.5 + centre)


def _torch_layer(cls, d, h, d_ff, act, norm_first, seed=0, bias=True, batch_first=True):
    """A seeded torch.nn.TransformerEncoderLayer / TransformerDecoderLayer (cls), eval mode."""
    torch.manual_seed(seed)
    ref = cls(d, h, d_ff, 0.1, act, batch_first=batch_first, norm_first=norm_first, bias=bias)
    _randomise_vectors(ref, seed)
    return ref.eval()


_torch_encoder = partial(_torch_layer, nn.TransformerEncoderLayer)
_torch_decoder = partial(_torch_layer, nn.TransformerDecoderLayer)


@contextmanager
def _record(module: nn.Module, names: list[str]):
    """Capture (first positional input, output) of named sub-modules during torch's forward."""
    seen: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    handles = []
    for name in names:
        sub = module.get_submodule(name)

        def hook(_m, args, out, name=name):
            seen[name] = (args[0], out[0] if isinstance(out, tuple) else out)

        handles.append(sub.register_forward_hook(hook))
    try:
        yield seen
    finally:
        for hd in handles:
            hd.remove()


def _weights(mha: nn.MultiheadAttention, q, kv, **kw) -> torch.Tensor:
    return mha(q, kv, kv, need_weights=True, average_attn_weights=False, **kw)[1]


def _torch_causal(T: int) -> torch.Tensor:
    """torch's convention: a bool attn_mask is True where attending is NOT allowed."""
    return torch.ones(T, T, dtype=torch.bool).triu(1)


# --- encoder layer ---------------------------------------------------------------------------
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("padded", [False, True])
def test_encoder_layer_equals_torch(slow_path, norm_first, activation, padded):
    d, h, d_ff, B, T = 24, 4, 40, 3, 7
    ref = _torch_encoder(d, h, d_ff, activation, norm_first, seed=1)
    ours = EncoderLayer.from_torch(ref).eval()
    x = torch.randn(B, T, d)
    kpm = padding_mask([7, 4, 1], T) if padded else None
    names = ["self_attn", "norm1", "norm2", "linear2"]
    with torch.no_grad(), _record(ref, names) as seen:
        expected = ref(x, src_key_padding_mask=kpm)
        tr = ours(x, kpm)
    close(tr.output, expected)
    # the Add & Norm intermediates are what torch's own sub-modules saw and returned
    close(tr.self_attn.output, seen["self_attn"][1])
    close(tr.attn_in, seen["self_attn"][0])
    close(tr.ff_hidden, seen["linear2"][0])  # eval: dropout is the identity
    close(tr.ff_out, seen["linear2"][1])
    if norm_first:
        close(tr.attn_in, seen["norm1"][1])
        close(tr.attn_residual, seen["norm2"][0])
        close(tr.attn_normed, seen["norm2"][1])
        close(tr.ff_residual, tr.output)
    else:
        close(tr.attn_residual, seen["norm1"][0])
        close(tr.attn_normed, seen["norm1"][1])
        close(tr.ff_residual, seen["norm2"][0])
    with torch.no_grad():
        w = _weights(ref.self_attn, tr.attn_in, tr.attn_in, key_padding_mask=kpm)
    close(tr.self_attn.weights, w)
    if padded:
        assert (tr.self_attn.weights.masked_select(kpm[:, None, None, :]) == 0).all()


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors:UserWarning")
def test_encoder_layer_matches_torch_fast_path_on_real_tokens():
    """nn.TransformerEncoder's fast path packs a padded batch into a nested tensor and returns
    zeros at padded positions; ours computes them like any token. Compare real tokens only."""
    d, h, B, T = 32, 4, 3, 9
    ref = _torch_encoder(d, h, 64, "relu", False, seed=2)
    stack = nn.TransformerEncoder(ref, 1, enable_nested_tensor=True).eval()
    ours = EncoderLayer.from_torch(stack.layers[0]).eval()
    x = torch.randn(B, T, d)
    kpm = padding_mask([9, 5, 2], T)
    with torch.inference_mode():
        expected = stack(x, src_key_padding_mask=kpm)
        tr = ours(x, kpm)
    real = ~kpm
    close(tr.output[real], expected[real])


def test_encoder_layer_state_dict_names_equal_torch():
    for nf in (False, True):
        ref = _torch_encoder(16, 2, 32, "gelu", nf)
        ours = EncoderLayer(16, 2, d_ff=32, activation="gelu", norm_first=nf)
        assert ours.state_dict().keys() == ref.state_dict().keys()
        for k, v in ref.state_dict().items():
            assert ours.state_dict()[k].shape == v.shape, k


def test_from_torch_without_bias_and_sequence_first(slow_path):
    d, T, B = 16, 5, 2
    ref = _torch_encoder(d, 4, 24, "relu", True, seed=3, bias=False, batch_first=False)
    ours = EncoderLayer.from_torch(ref).eval()
    assert ours.linear1.bias is None and ours.self_attn.in_proj_bias is None
    x = torch.randn(B, T, d)
    with torch.no_grad():
        expected = ref(x.transpose(0, 1)).transpose(0, 1)  # torch's layer is (T, B, C)
        close(ours(x).output, expected)


def test_unbatched_input_is_a_batch_of_one():
    layer = EncoderLayer(16, 4).eval()
    x = torch.randn(5, 16)
    with torch.no_grad():
        assert torch.equal(layer(x).output, layer(x[None]).output)


# --- decoder layer ---------------------------------------------------------------------------
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("padded", [False, True])
def test_decoder_layer_equals_torch(slow_path, norm_first, activation, padded):
    d, h, d_ff, B, T, S = 24, 3, 48, 3, 6, 8
    ref = _torch_decoder(d, h, d_ff, activation, norm_first, seed=4)
    ours = DecoderLayer.from_torch(ref).eval()
    y, memory = torch.randn(B, T, d), torch.randn(B, S, d)
    tkpm = padding_mask([6, 3, 1], T) if padded else None
    mkpm = padding_mask([8, 2, 5], S) if padded else None
    names = ["self_attn", "multihead_attn", "norm1", "norm2", "norm3", "linear2"]
    with torch.no_grad(), _record(ref, names) as seen:
        expected = ref(
            y,
            memory,
            tgt_mask=_torch_causal(T),
            tgt_key_padding_mask=tkpm,
            memory_key_padding_mask=mkpm,
        )
        tr = ours(y, memory, tgt_key_padding_mask=tkpm, memory_key_padding_mask=mkpm)
    close(tr.output, expected)
    close(tr.self_attn.output, seen["self_attn"][1])
    close(tr.self_in, seen["self_attn"][0])
    close(tr.cross_attn.output, seen["multihead_attn"][1])
    close(tr.cross_in, seen["multihead_attn"][0])
    close(tr.ff_hidden, seen["linear2"][0])
    close(tr.ff_out, seen["linear2"][1])
    if norm_first:
        close(tr.self_in, seen["norm1"][1])
        close(tr.self_residual, seen["norm2"][0])
        close(tr.self_normed, seen["norm2"][1])
        close(tr.cross_residual, seen["norm3"][0])
        close(tr.cross_normed, seen["norm3"][1])
    else:
        close(tr.self_residual, seen["norm1"][0])
        close(tr.self_normed, seen["norm1"][1])
        close(tr.cross_residual, seen["norm2"][0])
        close(tr.cross_normed, seen["norm2"][1])
        close(tr.ff_residual, seen["norm3"][0])
    with torch.no_grad():
        w_self = _weights(
            ref.self_attn, tr.self_in, tr.self_in, attn_mask=_torch_causal(T), key_padding_mask=tkpm
        )
        w_cross = _weights(ref.multihead_attn, tr.cross_in, memory, key_padding_mask=mkpm)
    close(tr.self_attn.weights, w_self)
    close(tr.cross_attn.weights, w_cross)
    assert tr.cross_attn.weights.shape == (B, h, T, S)
    # causal: the upper triangle is exactly 0; padded keys get exactly 0 weight
    upper = _torch_causal(T)
    assert (tr.self_attn.weights[..., upper] == 0).all()
    if padded:
        assert (tr.self_attn.weights.masked_select(tkpm[:, None, None, :]) == 0).all()
        assert (tr.cross_attn.weights.masked_select(mkpm[:, None, None, :]) == 0).all()


def test_decoder_layer_state_dict_names_equal_torch():
    ref = _torch_decoder(16, 2, 32, "relu", False)
    ours = DecoderLayer(16, 2, d_ff=32)
    assert ours.state_dict().keys() == ref.state_dict().keys()
    assert ours.cross_attn is ours.multihead_attn


@settings(max_examples=12, deadline=None)
@given(
    n_heads=st.sampled_from([1, 2, 3, 4]),
    hs=st.sampled_from([1, 2, 5, 8]),
    d_ff=st.integers(1, 40),
    B=st.integers(1, 3),
    T=st.integers(1, 7),
    S=st.integers(1, 7),
    norm_first=st.booleans(),
    activation=st.sampled_from(["relu", "gelu"]),
    data=st.data(),
)
def test_layers_equal_torch_property(n_heads, hs, d_ff, B, T, S, norm_first, activation, data):
    d = n_heads * hs
    t_len = [data.draw(st.integers(1, T)) for _ in range(B)]
    s_len = [data.draw(st.integers(1, S)) for _ in range(B)]
    tkpm, mkpm = padding_mask(t_len, T), padding_mask(s_len, S)
    enc_ref = _torch_encoder(d, n_heads, d_ff, activation, norm_first, seed=T)
    dec_ref = _torch_decoder(d, n_heads, d_ff, activation, norm_first, seed=S)
    enc, dec = EncoderLayer.from_torch(enc_ref), DecoderLayer.from_torch(dec_ref)
    x, y = torch.randn(B, S, d), torch.randn(B, T, d)
    with _slow_path(), torch.no_grad():
        mem_ref = enc_ref(x, src_key_padding_mask=mkpm)
        out_ref = dec_ref(
            y, mem_ref, tgt_mask=_torch_causal(T), tgt_key_padding_mask=tkpm,
            memory_key_padding_mask=mkpm,
        )  # fmt: skip
        mem = enc(x, mkpm)
        out = dec(y, mem.output, tgt_key_padding_mask=tkpm, memory_key_padding_mask=mkpm)
        w_ref = _weights(dec_ref.multihead_attn, out.cross_in, mem.output, key_padding_mask=mkpm)
    close(mem.output, mem_ref)
    close(out.output, out_ref)
    close(out.cross_attn.weights, w_ref)


def test_fully_padded_rows_are_zero_not_nan():
    """A sequence that is all padding: torch's attention gives NaN there, ours gives 0 rows."""
    d, B, T, S = 16, 2, 4, 5
    enc, dec = EncoderLayer(d, 4, seed=1).eval(), DecoderLayer(d, 4, seed=2).eval()
    x, y = torch.randn(B, S, d), torch.randn(B, T, d)
    mkpm = padding_mask([5, 0], S)  # the second source is all padding
    tkpm = padding_mask([4, 0], T)
    with torch.no_grad():
        e = enc(x, mkpm)
        o = dec(y, e.output, tgt_key_padding_mask=tkpm, memory_key_padding_mask=mkpm)
        alone_e = enc(x[:1], mkpm[:1])
        alone_o = dec(y[:1], alone_e.output, memory_key_padding_mask=mkpm[:1])
    for w in (e.self_attn.weights, o.self_attn.weights, o.cross_attn.weights):
        assert not w.isnan().any()
        assert (w[1] == 0).all()  # every row of the padded sequence is empty
    for t in (e.output, o.output, o.ff_out, o.cross_residual):
        assert torch.isfinite(t).all()
    assert e.self_attn.empty_rows[1].all() and o.cross_attn.empty_rows[1].all()
    # the real sequence is unaffected by its all-padding neighbour in the batch
    close(e.output[:1], alone_e.output)
    close(o.output[:1], alone_o.output)


def _dropout_factor(after: torch.Tensor, before: torch.Tensor, p: float) -> torch.Tensor:
    """Per entry, which of {0, 1/(1-p)} turns `before` into `after` (-1 where neither fits)."""
    ok = before.abs() > 1e-3  # ratios of tiny values are all rounding
    k = (after[ok] / before[ok]).detach()
    scale = 1.0 / (1.0 - p)
    return torch.where(
        (k.abs() < 1e-3), 0.0, torch.where((k - scale).abs() < 1e-3 * scale, scale, -1.0)
    )


@pytest.mark.parametrize("norm_first", [False, True])
def test_training_mode_applies_dropout_where_torch_does(norm_first):
    """Torch's layers drop the attention weights, each sub-layer's output before it joins the
    residual stream, and the feed-forward's hidden units. (Torch's masks cannot be matched
    draw for draw: its batch-first attention output is a transposed view, so the same random
    stream lands on other entries.) Each branch must be 0 or scaled by 1/(1-p) per entry."""
    p = 0.5
    enc = EncoderLayer(16, 4, d_ff=32, dropout=p, norm_first=norm_first, seed=0).train()
    dec = DecoderLayer(16, 4, d_ff=32, dropout=p, norm_first=norm_first, seed=1).train()
    hidden = {}
    for name, layer in (("enc", enc), ("dec", dec)):
        layer.dropout.register_forward_hook(
            lambda _m, _a, out, name=name: hidden.__setitem__(name, out)
        )
    x, y = torch.randn(2, 6, 16), torch.randn(2, 5, 16)
    torch.manual_seed(0)
    e = enc(x)
    d = dec(y, e.output)
    e_stream = e.attn_residual if norm_first else e.attn_normed
    d_stream1 = d.self_residual if norm_first else d.self_normed
    d_stream2 = d.cross_residual if norm_first else d.cross_normed
    branches = [
        (e.attn_residual - x, e.self_attn.output),  # dropout1
        (e.ff_residual - e_stream, e.ff_out),  # dropout2
        (hidden["enc"], e.ff_hidden),  # dropout inside the feed-forward
        (d.self_residual - y, d.self_attn.output),  # dropout1
        (d.cross_residual - d_stream1, d.cross_attn.output),  # dropout2
        (d.ff_residual - d_stream2, d.ff_out),  # dropout3
        (hidden["dec"], d.ff_hidden),
        (e.self_attn.dropped_weights, e.self_attn.weights),  # on the attention weights
        (d.self_attn.dropped_weights, d.self_attn.weights),
        (d.cross_attn.dropped_weights, d.cross_attn.weights),
    ]
    for i, (after, before) in enumerate(branches):
        k = _dropout_factor(after, before, p)
        assert (k >= 0).all(), i
        assert (k == 0).any() and (k > 0).any(), i  # ~half of >= 20 entries each way
    close(e.ff_out, enc.linear2(hidden["enc"]))
    with torch.no_grad():
        enc.eval()
        assert enc(x).self_attn.dropped_weights is None
        assert torch.equal(enc(x).output, enc(x).output)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(d_model=10, n_heads=4), "not divisible"),
        (dict(d_model=16, n_heads=4, activation="tanh"), "activation"),
        (dict(d_model=16, n_heads=4, d_ff=0), "d_ff"),
        (dict(d_model=16, n_heads=4, dropout=1.0), "dropout"),
    ],
)
def test_invalid_layer_settings_explain_themselves(kwargs, match):
    d, h = kwargs.pop("d_model"), kwargs.pop("n_heads")
    for cls in (EncoderLayer, DecoderLayer):
        with pytest.raises(ValueError, match=match):
            cls(d, h, **kwargs)


def test_layer_checks_inputs():
    enc = EncoderLayer(16, 4)
    with pytest.raises(ValueError, match="features"):
        enc(torch.randn(2, 3, 8))
    with pytest.raises(ValueError, match="bool"):
        enc(torch.randn(2, 3, 16), torch.zeros(2, 3))
    with pytest.raises(ValueError, match="shape"):
        enc(torch.randn(2, 3, 16), torch.zeros(2, 4, dtype=torch.bool))


def test_seeded_layers_are_reproducible():
    torch.manual_seed(1)
    a = EncoderLayer(16, 4, seed=7)
    torch.manual_seed(2)  # the global RNG does not matter
    b = EncoderLayer(16, 4, seed=7)
    c = EncoderLayer(16, 4, seed=8)
    for k, v in a.state_dict().items():
        assert torch.equal(v, b.state_dict()[k]), k
    assert not torch.equal(a.linear1.weight, c.linear1.weight)
    assert not torch.equal(a.self_attn.in_proj_weight, c.self_attn.in_proj_weight)


# --- the encoder-decoder model ---------------------------------------------------------------
def _model(**kw) -> EncoderDecoder:
    cfg = dict(src_vocab=11, tgt_vocab=13, d_model=16, n_heads=4, n_layers=2, max_len=16)
    cfg.update(kw)
    return EncoderDecoder(EncoderDecoderConfig(**cfg))


def _ids(V, B, T, seed):
    return torch.randint(0, V, (B, T), generator=torch.Generator().manual_seed(seed))


def test_config_validation_and_defaults():
    cfg = EncoderDecoderConfig(10, 12)
    assert cfg.d_ff == 4 * cfg.d_model and cfg.d_k == cfg.d_model // cfg.n_heads
    assert EncoderDecoderConfig(10, 12, d_model=32, d_ff=50).d_ff == 50
    assert hash(cfg) == hash(EncoderDecoderConfig(10, 12, d_ff=4 * cfg.d_model))
    bad = [
        (dict(d_model=10, n_heads=4), "not divisible"),
        (dict(src_vocab=0), "src_vocab"),
        (dict(n_layers=0), "n_layers"),
        (dict(max_len=0), "max_len"),
        (dict(dropout=-0.1), "dropout"),
        (dict(activation="swish"), "activation"),
        (dict(d_ff=0), "d_ff"),
        (dict(seed=-1), "seed"),
    ]
    for kw, match in bad:
        args = dict(src_vocab=10, tgt_vocab=12) | kw
        with pytest.raises(ValueError, match=match):
            EncoderDecoderConfig(**args)


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_decoder_shapes_and_traces_by_name(norm_first):
    m = _model(norm_first=norm_first, n_layers=3).eval()
    B, S, T = 2, 7, 5
    src, tgt = _ids(11, B, S, 0), _ids(13, B, T, 1)
    with torch.inference_mode():
        tr = m(src, tgt)
    assert tr.logits.shape == (B, T, 13)
    assert tr.memory.shape == (B, S, 16) and tr.decoder_out.shape == (B, T, 16)
    assert len(tr.encoder_self) == len(tr.decoder_self) == len(tr.decoder_cross) == 3
    for l in range(3):
        assert tr.encoder_self[l].weights.shape == (B, 4, S, S)
        assert tr.decoder_self[l].weights.shape == (B, 4, T, T)
        assert tr.decoder_cross[l].weights.shape == (B, 4, T, S)
        assert tr.encoder_self[l] is tr.encoder_layers[l].self_attn
        assert tr.decoder_cross[l] is tr.decoder_layers[l].cross_attn
        assert (tr.decoder_self[l].weights[..., _torch_causal(T)] == 0).all()
        # every decoder layer attends over the same memory
        assert tr.decoder_layers[l].memory is tr.memory
    assert (m.encoder_norm is not None) == norm_first


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_decoder_equals_torch_stacks(slow_path, norm_first):
    """Our stacks against nn.TransformerEncoder / nn.TransformerDecoder holding our weights."""
    m = _model(norm_first=norm_first, activation="gelu", n_layers=2, d_ff=24).eval()
    _randomise_vectors(m, 5)
    cfg = m.config
    B, S, T = 3, 6, 5
    src, tgt = _ids(11, B, S, 2), _ids(13, B, T, 3)
    skpm, tkpm = padding_mask([6, 3, 1], S), padding_mask([5, 5, 2], T)
    kw = dict(
        dim_feedforward=cfg.d_ff, dropout=0.0, activation="gelu", batch_first=True,
        norm_first=norm_first,
    )  # fmt: skip
    enc_ref = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(16, 4, **kw),
        2,
        norm=nn.LayerNorm(16) if norm_first else None,
        enable_nested_tensor=False,
    )
    dec_ref = nn.TransformerDecoder(
        nn.TransformerDecoderLayer(16, 4, **kw), 2, norm=nn.LayerNorm(16) if norm_first else None
    )
    for l in range(2):
        enc_ref.layers[l].load_state_dict(m.encoder_layers[l].state_dict())
        dec_ref.layers[l].load_state_dict(m.decoder_layers[l].state_dict())
    if norm_first:
        enc_ref.norm.load_state_dict(m.encoder_norm.state_dict())
        dec_ref.norm.load_state_dict(m.decoder_norm.state_dict())
    enc_ref.eval(), dec_ref.eval()
    with torch.no_grad():
        tr = m(src, tgt, src_key_padding_mask=skpm, tgt_key_padding_mask=tkpm)
        memory = enc_ref(tr.src_x, src_key_padding_mask=skpm)
        hidden = dec_ref(
            tr.tgt_x, memory, tgt_mask=_torch_causal(T), tgt_key_padding_mask=tkpm,
            memory_key_padding_mask=skpm,
        )  # fmt: skip
        logits = F.linear(hidden, m.output_proj.weight, m.output_proj.bias)
    close(tr.memory, memory)
    close(tr.decoder_out, hidden)
    close(tr.logits, logits)
    # the embedding recipe: table row * sqrt(d_model) + PE (dropout is off in eval)
    pe = sinusoidal_encoding(S, 16)
    close(tr.src_x, F.embedding(src, m.src_embed.weight) * math.sqrt(16) + pe)


def test_forward_embeddings_is_forward_on_embedded_ids():
    m = _model().eval()
    src, tgt = _ids(11, 2, 5, 4), _ids(13, 2, 4, 5)
    with torch.no_grad():
        a = m(src, tgt)
        b = m.forward_embeddings(m.embed_src(src), m.embed_tgt(tgt))
    assert torch.equal(a.logits, b.logits)


def test_forward_embeddings_takes_the_home_page_embeddings():
    m = _model(d_model=32).eval()
    src = embed_tokens(["I", "want", "to", "live", "in", "Europe"], 32, 0, positional=True)
    tgt = embed_tokens(["je", "veux"], 32, 0, positional=True)
    with torch.inference_mode():
        tr = m.forward_embeddings(src, tgt)  # unbatched: a batch of one
    assert torch.equal(tr.src_x[0], src)  # used as given: nothing scaled or added
    assert tr.decoder_cross[0].weights.shape == (1, 4, 2, 6)
    assert torch.isfinite(tr.logits).all()


def test_outputs_do_not_depend_on_future_targets_or_source_padding():
    m = _model().eval()
    src, tgt = _ids(11, 1, 6, 6), _ids(13, 1, 5, 7)
    tgt2 = tgt.clone()
    tgt2[0, 3:] = (tgt2[0, 3:] + 1) % 13  # change the future
    src_padded = torch.cat([src, torch.zeros(1, 3, dtype=torch.long)], dim=1)
    skpm = padding_mask([6], 9)
    with torch.no_grad():
        a, b = m(src, tgt).logits, m(src, tgt2).logits
        c = m(src_padded, tgt, src_key_padding_mask=skpm).logits
    close(a[:, :3], b[:, :3])
    assert not torch.allclose(a[:, 3:], b[:, 3:])
    close(c, a)  # padding the source (with its mask) changes nothing


def test_seeded_model_is_reproducible():
    torch.manual_seed(0)
    a = _model(seed=3)
    torch.manual_seed(1)
    b = _model(seed=3)
    c = _model(seed=4)
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert not torch.equal(sa["src_embed.weight"], c.state_dict()["src_embed.weight"])
    assert not torch.equal(
        sa["decoder_layers.1.linear1.weight"], c.state_dict()["decoder_layers.1.linear1.weight"]
    )
    # the scaled embedding's entries have unit variance, like embed_tokens
    scaled = a.src_embed.weight.detach() * a.embed_scale
    assert 0.7 < float(scaled.std()) < 1.3  # 176 draws of N(0, 1): std within ~8 sigma


@pytest.mark.parametrize("norm_first", [False, True])
def test_gradients_flow_to_every_parameter(norm_first):
    m = _model(norm_first=norm_first, dropout=0.1).train()
    B, S, T = 3, 6, 5
    src, tgt = _ids(11, B, S, 8), _ids(13, B, T + 1, 9)
    skpm = padding_mask([6, 4, 0], S)  # one source entirely padding: no NaN in the gradient
    torch.manual_seed(0)
    tr = m(src, tgt[:, :-1], src_key_padding_mask=skpm)
    loss = F.cross_entropy(tr.logits.reshape(-1, 13), tgt[:, 1:].reshape(-1))
    loss.backward()
    for name, p in m.named_parameters():
        assert p.grad is not None, name
        assert torch.isfinite(p.grad).all(), name
        assert p.grad.abs().sum() > 0, name


@pytest.fixture
def one_thread():
    """Tiny tensors gain nothing from intra-op threads, and on a busy machine the threads'
    hand-offs make each step many times slower; restore the setting afterwards."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def test_a_few_training_steps_lower_the_loss(one_thread):
    """Teacher forcing on a copy task: the loss must fall (gradients are usable, not just
    present). Deterministic (seeded): the loss ends near 0.25 x its start, far below 0.5 x."""
    m = _model(d_model=32, n_heads=4, n_layers=1).train()
    opt = torch.optim.Adam(m.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(0)
    src = torch.randint(2, 11, (16, 6), generator=g)
    tgt = torch.cat([torch.zeros(16, 1, dtype=torch.long), src], dim=1)  # BOS = 0, then copy
    torch.manual_seed(0)
    losses = []
    for _ in range(25):
        logits = m(src, tgt[:, :-1]).logits
        loss = F.cross_entropy(logits.reshape(-1, 13), tgt[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]


def test_greedy_decode_agrees_with_the_full_forward():
    m = _model(seed=1).eval()
    src = _ids(11, 3, 6, 10)
    skpm = padding_mask([6, 4, 2], 6)
    ys = greedy_decode(m, src, bos_id=0, max_len=7, src_key_padding_mask=skpm)
    assert ys.shape == (3, 8) and ys.dtype == torch.long
    assert (ys[:, 0] == 0).all()
    with torch.no_grad():
        logits = m(src, ys[:, :-1], src_key_padding_mask=skpm).logits
    assert torch.equal(logits.argmax(-1), ys[:, 1:])


def test_greedy_decode_stops_after_eos():
    m = _model(seed=1).eval()
    src = _ids(11, 2, 5, 11)
    free = greedy_decode(m, src, 0, 6)
    eos = int(free[0, 1])  # the first token row 0 produces: make it the EOS
    ys = greedy_decode(m, src, 0, 6, eos_id=eos)
    for row in ys:
        hits = (row[1:] == eos).nonzero()
        if len(hits):
            assert (row[1 + int(hits[0]) :] == eos).all()  # EOS repeats after the first one
    assert ys.shape[1] <= free.shape[1]
    with pytest.raises(ValueError, match="max_len"):
        greedy_decode(m, src, 0, 99)
    with pytest.raises(ValueError, match="bos_id"):
        greedy_decode(m, src, 13, 3)


def test_model_checks_ids():
    m = _model()
    with pytest.raises(ValueError, match="token ids in"):
        m(torch.tensor([[0, 11]]), torch.tensor([[0]]))
    with pytest.raises(ValueError, match="max_len"):
        m(torch.zeros(1, 17, dtype=torch.long), torch.tensor([[0]]))
    with pytest.raises(ValueError, match="integer"):
        m(torch.zeros(1, 3), torch.tensor([[0]]))
    with pytest.raises(ValueError, match="batch sizes"):
        m(torch.zeros(2, 3, dtype=torch.long), torch.zeros(1, 2, dtype=torch.long))
