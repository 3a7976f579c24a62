"""The decoder's language-model tasks: the induction repeat is a copy, the mask is right,
position alone cannot solve it; the toy tasks as "<bos> x | y <eos>" sequences."""

from __future__ import annotations

import pytest
import torch

from mha_core.gpt import InductionTask, get_lm_task
from mha_core.transformer.toy_tasks import TASKS


def _earlier_successor(row: list[int], p: int) -> bool:
    """True if token p - 1 occurred before, and the token after that occurrence is token p."""
    return any(row[k] == row[p - 1] and row[k + 1] == row[p] for k in range(p - 1))


@pytest.mark.parametrize("min_offset", [2, None])
@pytest.mark.parametrize("unique_chunk", [True, False])
def test_induction_repeat_is_a_copy_and_the_mask_marks_its_tail(unique_chunk, min_offset):
    task = InductionTask(unique_chunk=unique_chunk, min_offset=min_offset)
    b = task.sample(400, 3)
    T = task.seq_len
    assert b.tokens.shape == b.predictable.shape == (400, T)
    assert torch.all(b.tokens[:, 0] == 0) and torch.all(b.tokens[:, 1:] >= 1)
    overlapping = 0
    for row, mask in zip(b.tokens.tolist(), b.predictable.tolist(), strict=True):
        ps = [p for p in range(T) if mask[p]]
        n = len(ps) + 1  # the repeat's length: its first token is not predictable
        assert task.min_repeat <= n <= task.max_repeat
        assert ps == list(range(ps[0], ps[0] + n - 1))  # one contiguous run
        s2 = ps[0] - 1
        lo = n if min_offset is None else min_offset
        copies = [
            s1 for s1 in range(1, s2 - lo + 1) if row[s1 : s1 + n] == row[s2 : s2 + n]
        ]  # an earlier copy of the whole chunk, at least min_offset (or n) back
        assert copies
        assert all(_earlier_successor(row, p) for p in ps)
        d = s2 - copies[-1]
        overlapping += d < n
        if unique_chunk:  # one period of the chunk: distinct symbols found only in the copies
            period = row[s2 : s2 + min(n, d)]
            assert len(set(period)) == len(period)
            outside = row[1 : copies[-1]] + row[s2 + n :] + row[copies[-1] + n : s2]
            assert not set(period) & set(outside)
    if min_offset is None:
        assert overlapping == 0
    else:  # short offsets make periodic stretches ("xyxyxy")
        assert overlapping > 0


def test_offset_two_occurs_and_bad_offsets_are_explained():
    # symbols found only in the chunk and its copy: the nearest earlier occurrence of the first
    # predictable token is its copy (random filler can hold a nearer chance one)
    b = InductionTask(unique_chunk=True).sample(1000, 1)
    periods = []
    for row, mask in zip(b.tokens.tolist(), b.predictable.tolist(), strict=True):
        p = mask.index(True)
        periods.append(next(d for d in range(1, p) if row[p - d] == row[p]))
    assert min(periods) == 2 and 1 not in periods
    with pytest.raises(ValueError, match="min_offset"):
        InductionTask(min_offset=1)
    with pytest.raises(ValueError, match="min_offset"):
        InductionTask(min_offset=7)


def test_position_alone_cannot_solve_induction():
    """The copy sits at a varying distance back, so no fixed offset finds the answer."""
    b = InductionTask().sample(1000, 0)
    offsets = []
    for row, mask in zip(b.tokens.tolist(), b.predictable.tolist(), strict=True):
        p = mask.index(True)  # first predictable token: its copy is `offset` tokens back
        offsets.append(next(d for d in range(2, p) if row[p - d] == row[p]))
    counts = torch.bincount(torch.tensor(offsets))
    assert int((counts > 0).sum()) >= 8
    assert int(counts.max()) < 0.25 * len(offsets)


def test_sampling_is_seeded():
    t = InductionTask()
    a, b, c = t.sample(8, 5), t.sample(8, 5), t.sample(8, 6)
    assert torch.equal(a.tokens, b.tokens) and torch.equal(a.predictable, b.predictable)
    assert not torch.equal(a.tokens, c.tokens)


def test_probe_is_valid_and_parse_rejects_bad_input():
    t = InductionTask()
    assert len(t.probe) == t.seq_len - 1
    assert t.parse("ab c") == ("a", "b", "c")
    assert t.encode(("a", "b")).tolist() == [0, 1, 2]
    for bad in ("", "   ", "<b>x</b>", "a" * t.seq_len, "🙂", "ABC"):
        with pytest.raises(ValueError):
            t.parse(bad)
    with pytest.raises(ValueError, match="n_symbols"):
        InductionTask(n_symbols=8)


@pytest.mark.parametrize("name", ["reverse", "sort", "copy"])
def test_toy_tasks_as_language_model_sequences(name):
    task = get_lm_task(name)
    toy = TASKS[name]
    b = task.sample(100, 2)
    assert b.tokens.shape == (100, task.seq_len)
    for row, mask in zip(b.tokens.tolist(), b.predictable.tolist(), strict=True):
        words = [task.vocab[i] for i in row]
        sep = words.index("|")
        eos = words.index("<eos>")
        x, y = tuple(words[1:sep]), tuple(words[sep + 1 : eos])
        assert words[0] == "<bos>" and set(words[eos + 1 :]) <= {"<pad>"}
        assert y == toy.target(x)
        assert [p for p, m in enumerate(mask) if m] == list(range(sep + 1, eos + 1))
    assert torch.equal(b.loss_mask, b.predictable)


def test_unknown_task_is_explained():
    with pytest.raises(ValueError, match="induction"):
        get_lm_task("nope")
