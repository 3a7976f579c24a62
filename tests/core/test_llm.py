"""SmolLM2-135M-Instruct through our core against Hugging Face's LlamaForCausalLM and tokenizer
loaded from the same GGUF file: logits, every layer's attention, keys and values after RoPE,
hidden states, the tokenizer, the chat prompt and greedy generation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import mha_core

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path("/work/shared/seeds")

TEXTS = [
    "The cat sat on the mat because it was tired.",
    "Family 👨‍👩‍👧‍👦 and flags 🇫🇷🇯🇵, a heart ❤️ and a face 😀!",
    "注意力机制让模型关注重要的词。日本語も少し: こんにちは。",
    "def attend(q, k, v):\n    w = softmax(q @ k.T / sqrt(d))\n    return w @ v  # (T, hs)\n",
    "spaces    and\t\ttabs\n\n\n   and  newlines   ",
    "12345 apples cost $3.50; 1,000,000 people — naïve café, e\u0301, \u200bzero width.",
    "<|im_start|>user\nHi<|im_end|> and <b>x</b> <img src=x onerror=alert(1)>",
]


def corpus_texts() -> list[str]:
    """Lines of the repo's corpus and of the shared seed texts (every non-empty line)."""
    paths = [ROOT / "mha_core" / "data" / "corpus_en.txt", *sorted(SEEDS.glob("*.txt"))]
    lines = []
    for p in paths:
        text = p.read_text(encoding="utf-8")
        lines += [line for line in text.splitlines() if line.strip()]
        lines.append(text[:4000])  # whole paragraphs too: newlines and indents between lines
    return lines


def long_ids(llm, n: int = 512) -> list[int]:
    text = (ROOT / "mha_core" / "data" / "corpus_en.txt").read_text(encoding="utf-8")
    ids = llm.tokenizer.encode(text)
    assert len(ids) >= n
    return ids[:n]


def hf_forward(hf_llm, ids):
    with torch.inference_mode():
        return hf_llm(
            torch.tensor([ids]), output_attentions=True, output_hidden_states=True,
            use_cache=True,
        )


def check_against_hf(llm, hf_llm, ids) -> None:
    tr = llm.trace(ids)
    ref = hf_forward(hf_llm, ids)
    L = llm.config.n_layers
    scale = ref.logits.abs().max()
    assert (tr.logits - ref.logits[0]).abs().max() <= 1e-4 * scale
    assert tr.attentions.shape == (L, 9, len(ids), len(ids))
    for i in range(L):
        assert (tr.attentions[i] - ref.attentions[i][0]).abs().max() <= 1e-5, f"layer {i}"
        layer = ref.past_key_values.layers[i]  # keys after RoPE, values, per KV head
        at = tr.layers[i].attn
        torch.testing.assert_close(at.k, layer.keys, rtol=0, atol=1e-4 * layer.keys.abs().max())
        torch.testing.assert_close(
            at.v, layer.values, rtol=0, atol=1e-4 * layer.values.abs().max()
        )
    hs = ref.hidden_states  # Hugging Face's last one is after the final norm
    for i in range(L):
        torch.testing.assert_close(
            tr.hidden_states[i], hs[i][0], rtol=0, atol=1e-4 * hs[i].abs().max()
        )
    normed = llm.norm(tr.hidden_states[L])
    torch.testing.assert_close(normed, hs[L][0], rtol=0, atol=1e-4 * hs[L].abs().max())


@pytest.mark.parametrize("text", TEXTS)
def test_trace_equals_hugging_face(llm, hf_llm, text):
    check_against_hf(llm, hf_llm, llm.tokenizer.encode(text))


def test_trace_equals_hugging_face_at_512_tokens(llm, hf_llm):
    check_against_hf(llm, hf_llm, long_ids(llm))


def test_trace_parts_add_up(llm):
    ids = llm.chat_ids("Why is the sky blue?")
    tr = llm.trace(ids)
    h = tr.hidden_states
    torch.testing.assert_close(h[1:], h[:-1] + tr.attn_outputs + tr.mlp_outputs)
    i = 7
    at = tr.layers[i].attn
    assert at.q.shape == (1, 9, len(ids), 64) and at.k.shape == (1, 3, len(ids), 64)
    # each head's output is its weights times the values of its KV group (heads 3g .. 3g+2)
    for h_ in range(9):
        torch.testing.assert_close(at.head_outputs[0, h_], at.weights[0, h_] @ at.v[0, h_ // 3])
    torch.testing.assert_close(at.output[0], tr.attn_outputs[i])
    # q and k after RoPE: the scores q.k / 8, masked, through the softmax are the weights
    scores = at.q[0] @ at.k[0].repeat_interleave(3, dim=0).transpose(1, 2) / 8
    mask = torch.ones(len(ids), len(ids), dtype=torch.bool).tril()
    w = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
    torch.testing.assert_close(w, at.weights[0], rtol=0, atol=1e-6)
    torch.testing.assert_close(tr.layers[i].normed, llm.blocks[i].attn_norm(h[i]))


def test_trace_keeps_what_is_asked(llm):
    ids = llm.tokenizer.encode(TEXTS[0])
    full = llm.trace(ids)
    T = len(ids)
    part = llm.trace(ids, layers=[3, 29], rows=[0, T - 1], residual=False)
    assert set(part.layers) == {3, 29} and part.attn_outputs is None
    assert part.attentions.shape == (30, 9, 2, T) and part.logits.shape == (2, 49152)
    torch.testing.assert_close(part.attentions, full.attentions[:, :, [0, T - 1]])
    # another matmul shape (2 rows, not T): float rounding only
    scale = float(full.logits.abs().max())
    torch.testing.assert_close(part.logits, full.logits[[0, T - 1]], rtol=0, atol=1e-5 * scale)
    torch.testing.assert_close(part.layers[29].attn.weights, full.layers[29].attn.weights)
    for bad in ({"layers": [30]}, {"rows": [T]}, {"rows": [-1]}):
        with pytest.raises(ValueError, match="must be in"):
            llm.trace(ids, **bad)
    with pytest.raises(ValueError, match="no tokens"):
        llm.trace([])
    with pytest.raises(ValueError, match="token ids"):
        llm.trace([49152])


# --- the tokenizer ----------------------------------------------------------------------------
def test_tokenizer_equals_hugging_face_on_a_corpus(llm, hf_llm_tokenizer):
    texts = corpus_texts() + TEXTS + ["", " ", "   leading", "trailing  ", "\n", "a\r\nb"]
    for text in texts:
        ours = llm.tokenizer.encode(text)
        assert ours == hf_llm_tokenizer.encode(text), repr(text[:80])
        assert llm.tokenizer.decode(ours) == hf_llm_tokenizer.decode(
            ours, skip_special_tokens=True
        )


def test_digits_are_split_one_by_one(llm):
    ids = llm.tokenizer.encode("12345 apples")
    assert llm.tokenizer.token_texts(ids) == ["1", "2", "3", "4", "5", " apples"]


@pytest.mark.parametrize(
    ("question", "system"),
    [
        ("What is the capital of France?", None),
        ("Translate 'attention' into French.", "You answer in one word."),
        ("", None),
        ("<|im_end|> {{ 1 + 1 }} {% raw %}", ""),
        ("多头注意力是什么？😀", None),
    ],
)
def test_chat_ids_equal_apply_chat_template(llm, hf_llm_tokenizer, question, system):
    messages = [] if system is None else [{"role": "system", "content": system}]
    messages.append({"role": "user", "content": question})
    ref = hf_llm_tokenizer.apply_chat_template(messages, add_generation_prompt=True)
    ref = ref["input_ids"] if hasattr(ref, "keys") else ref
    assert llm.chat_ids(question, system=system) == list(ref)


# --- generation -------------------------------------------------------------------------------
def hf_greedy(hf_llm, ids, n):
    with torch.inference_mode():
        out = hf_llm.generate(
            torch.tensor([ids]), max_new_tokens=n, do_sample=False, pad_token_id=2
        )
    return out[0, len(ids):].tolist()


def test_greedy_answer_equals_hugging_face(llm, hf_llm):
    ids = llm.chat_ids("What is the capital of France?")
    ours = llm.generate(ids, 12)
    assert list(ours.ids) == hf_greedy(hf_llm, ids, 12)
    assert ours.text == "The capital of France is Paris."
    assert ours.stop_reason == "eos" and ours.ids[-1] == llm.tokenizer.eos_id
    assert "".join(s.piece for s in ours.steps) == ours.text
    for s in ours.steps:
        assert s.candidates[0] == s.token and s.probs == tuple(sorted(s.probs, reverse=True))


def test_greedy_continuation_equals_hugging_face(llm, hf_llm):
    ids = llm.tokenizer.encode("The attention mechanism in a transformer")
    ours = llm.generate(ids, 12)
    assert ours.stop_reason == "length" and len(ours.ids) == 12
    assert list(ours.ids) == hf_greedy(hf_llm, ids, 12)


def test_kv_cache_equals_recomputing_the_prefix(llm):
    ids = llm.chat_ids("Name three colours.")
    gen = llm.generate(ids, 6)
    full = llm.trace(list(ids) + list(gen.ids), layers=(), residual=False)
    cache = mha_core.KVCache(llm.config.n_layers)
    logits = llm.forward_cached(ids, cache)
    seq = list(ids)
    for token in gen.ids:
        ref = full.logits[len(seq) - 1]
        assert (logits - ref).abs().max() <= 1e-4 * ref.abs().max()
        assert cache.length == len(seq)
        logits = llm.forward_cached([token], cache)
        seq.append(token)
    assert cache.nbytes == 2 * 30 * 3 * 64 * len(seq) * 4


def test_streaming_stops_when_asked(llm):
    ids = llm.tokenizer.encode("Once upon a time")
    seen = []
    out = llm.generate(ids, 20, on_token=seen.append, stop=lambda: len(seen) >= 3)
    assert out.stop_reason == "stopped" and len(out.ids) == 3 and len(seen) == 3
    stream = llm.stream(ids, 20)
    first = [next(stream).token for _ in range(2)]
    stream.close()
    assert first == list(out.ids[:2])


def test_sampling_is_seeded(llm):
    ids = llm.tokenizer.encode("My favourite animal is")
    a = llm.generate(ids, 8, temperature=1.0, top_k=50, seed=3)
    b = llm.generate(ids, 8, temperature=1.0, top_k=50, seed=3)
    assert a.ids == b.ids
    for s in a.steps:
        assert s.token in s.candidates or len(s.candidates) == 5
        assert 0 < sum(s.probs) <= 1 + 1e-6
    greedy = llm.generate(ids, 8)
    assert llm.generate(ids, 8, temperature=0.7, top_k=1, seed=9).ids == greedy.ids


@pytest.mark.parametrize(
    "kwargs",
    [{"temperature": -1.0}, {"temperature": float("nan")}, {"top_k": 0}, {"top_p": 0.0},
     {"top_p": 1.5}, {"max_new_tokens": -1}],
)
def test_bad_generation_settings_are_explained(llm, kwargs):
    args = {"max_new_tokens": 3} | kwargs
    with pytest.raises(ValueError, match="must be"):
        llm.generate([1, 2, 3], **args)


def test_a_prompt_past_the_context_is_refused(llm):
    with pytest.raises(ValueError, match="exceed"):
        llm.generate([100] * 8190, 5)


# --- reading the real model -------------------------------------------------------------------
SENTENCE = "The cat sat on the mat because it was tired."


def test_logit_lens_equals_hugging_face_hidden_states(llm, hf_llm):
    ids = llm.tokenizer.encode(SENTENCE)
    tr = llm.trace(ids)
    lens = mha_core.logit_lens(llm, tr, position=-1, k=5)
    ref = hf_forward(hf_llm, ids)
    L = llm.config.n_layers
    assert lens.top_ids.shape == (L + 1, 5) and lens.rank.shape == (L + 1,)
    with torch.inference_mode():
        for i in range(L):  # Hugging Face's hidden states through its own final norm and head
            logits = hf_llm.lm_head(hf_llm.model.norm(ref.hidden_states[i][0, -1]))
            assert lens.top_ids[i, 0] == int(logits.argmax()), f"layer {i}"
            assert lens.rank[i] == int((logits > logits[lens.token]).sum())
    assert lens.token == int(ref.logits[0, -1].argmax()) and lens.rank[L] == 0
    probs = torch.softmax(tr.logits[-1], -1)
    assert abs(lens.prob[L] - float(probs[lens.token])) < 1e-6
    assert lens.top_ids[L, 0] == lens.token and all(lens.top_probs[:, 0] >= lens.top_probs[:, 1])


def test_head_attribution_adds_up_and_equals_hugging_face_heads(llm, hf_llm):
    ids = llm.tokenizer.encode(SENTENCE)
    tr = llm.trace(ids)
    att = mha_core.head_attribution(llm, tr, position=-1)
    assert att.heads.shape == (30, 9) and att.mlps.shape == (30,)
    assert abs(att.total() - att.logit) <= 1e-4 * abs(att.logit)
    assert abs(att.logit - float(tr.logits[-1, att.token])) <= 1e-4 * abs(att.logit)
    # the same split from Hugging Face's own tensors: the input of each o_proj (the heads side
    # by side) and of the final norm, read with forward hooks
    concat, final = {}, {}
    hooks = [layer.self_attn.o_proj.register_forward_pre_hook(
        lambda mod, args, i=i: concat.__setitem__(i, args[0][0, -1]))
        for i, layer in enumerate(hf_llm.model.layers)]
    hooks.append(hf_llm.model.norm.register_forward_pre_hook(
        lambda mod, args: final.__setitem__("x", args[0][0, -1])))
    try:
        hf_forward(hf_llm, ids)
    finally:
        for h in hooks:
            h.remove()
    x = final["x"]
    norm = hf_llm.model.norm
    with torch.inference_mode():
        read = norm.weight * torch.rsqrt(x.pow(2).mean() + norm.variance_epsilon)
        read = read * hf_llm.lm_head.weight[att.token]
        for i in (0, 15, 29):
            W_O = hf_llm.model.layers[i].self_attn.o_proj.weight  # (C, C)
            for h in range(9):
                s = slice(64 * h, 64 * h + 64)
                ref = float((concat[i][s] @ W_O[:, s].T) @ read)
                assert abs(att.heads[i, h] - ref) <= 1e-4 * abs(att.logit), (i, h)


def test_head_scores_find_induction_and_previous_token_heads(llm):
    ids = llm.tokenizer.encode(SENTENCE)
    s = mha_core.llm_head_scores(llm, ids, n_random=50, seed=0)
    for name, v in s.as_dict().items():
        assert v.shape == (30, 9) and np.isfinite(v).all(), name
    for v in (s.previous, s.induction, s.sink):
        assert (v >= 0).all() and (v <= 1 + 1e-9).all()
    assert (s.distance >= 0).all() and (s.distance <= len(ids) - 1).all()
    # measured here: the best induction head (layer 18, head 6) scores 0.84-0.85 on seeds 0-2,
    # the best previous-token head (layer 16, head 0) 0.80, the strongest sink 1.00
    assert s.induction.max() > 0.5 and s.previous.max() > 0.5 and s.sink.max() > 0.9
    assert len(s.induction_tokens) == 101 and s.induction_tokens[0] == llm.tokenizer.bos_id
    assert (s.induction_tokens[1:51] == s.induction_tokens[51:]).all()
    assert not set(s.induction_tokens[1:].tolist()) & set(range(17))  # no special token drawn
    w = llm.trace(ids, layers=(), residual=False).attentions
    assert np.allclose(s.sink, w[:, :, 1:, 0].double().mean(-1).numpy())


def test_kv_cache_bytes_are_what_generation_keeps(llm):
    cfg = llm.config
    assert cfg.kv_cache_bytes(45) == 2 * 30 * 3 * 64 * 45 * 4  # SmolLM2-135M, float32
    assert cfg.kv_cache_bytes(45, n_kv_heads=cfg.n_heads) == 3 * cfg.kv_cache_bytes(45)
    cache = mha_core.KVCache(cfg.n_layers)
    llm.forward_cached(llm.chat_ids("Hi")[:10], cache)
    assert cache.nbytes == cfg.kv_cache_bytes(10)
