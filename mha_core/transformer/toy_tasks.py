"""Toy sequence-to-sequence tasks for training a tiny Transformer live.

Every task maps a sequence over a small alphabet (letters a..h by default) to another sequence;
examples are made on the fly from a seed, so there is no data set to download or store.

Token ids: 0 = PAD, 1 = BOS, 2 = EOS, then one id per symbol of the alphabet. For an input
x_1..x_n with target y_1..y_n (n between `min_len` and `max_len`), a batch holds:

    src     = x_1 .. x_n  EOS PAD ..   (B, S)  S = max_len + 1   encoder input
    tgt_in  = BOS y_1 .. y_n  PAD ..   (B, T)  T = max_len + 1   decoder input (shifted right)
    tgt_out = y_1 .. y_n  EOS PAD ..   (B, T)                    what each decoder position predicts

Decoder position t (0-based; it reads BOS when t = 0, y_t after) predicts y_{t+1}; for reversal
y_{t+1} = x_{n-t}, which sits at source index n - 1 - t (`mirror_index`). Position t = n predicts
EOS. Accuracy counts every non-PAD target position, EOS included: token accuracy is the share of
those positions predicted right, exact-sequence accuracy the share of sequences with all of them
right. With teacher forcing, a sequence is exact iff greedy decoding reproduces it, because each
greedy step then sees the same (correct) prefix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import torch

PAD, BOS, EOS = 0, 1, 2
SPECIALS = ("<pad>", "<bos>", "<eos>")  # the symbols of ids 0, 1, 2
N_SPECIAL = len(SPECIALS)
ALPHABET = tuple("abcdefgh")


@dataclass(frozen=True)
class ToyBatch:
    """A padded batch of examples, ready for the encoder-decoder. All tensors are int64/bool."""

    src: torch.Tensor  # (B, S) symbols then EOS, PAD after
    tgt_in: torch.Tensor  # (B, T) BOS then the target symbols, PAD after
    tgt_out: torch.Tensor  # (B, T) the target symbols then EOS, PAD after
    lengths: torch.Tensor  # (B,) n, the number of symbols per example

    @property
    def src_pad(self) -> torch.Tensor:
        """(B, S) bool, True where the source is padding (the encoder's key_padding_mask)."""
        return self.src == PAD

    @property
    def tgt_pad(self) -> torch.Tensor:
        """(B, T) bool, True where the decoder input is padding."""
        return self.tgt_in == PAD

    def __len__(self) -> int:
        return self.src.shape[0]


# Each rule comes twice: on symbols (the readable definition, used for single examples) and on
# a batch of alphabet indices (B, L) with lengths (B,) (fast; positions >= length are ignored and
# may hold anything). The tests check that the two agree.


def _reverse(xs: tuple[str, ...], alphabet: tuple[str, ...]) -> tuple[str, ...]:
    return xs[::-1]


def _reverse_ids(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    L = x.shape[1]
    idx = (lengths[:, None] - 1 - torch.arange(L)).clamp(min=0)  # (B, L) n-1-t
    return x.gather(1, idx)


def _sort(xs: tuple[str, ...], alphabet: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(xs, key=alphabet.index))  # in alphabet order


def _sort_ids(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    L = x.shape[1]
    pad = torch.arange(L)[None, :] >= lengths[:, None]  # (B, L)
    big = torch.iinfo(x.dtype).max
    return x.masked_fill(pad, big).sort(dim=1).values.masked_fill(pad, 0)


def _copy(xs: tuple[str, ...], alphabet: tuple[str, ...]) -> tuple[str, ...]:
    return xs


def _copy_ids(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    return x.clone()


@dataclass(frozen=True)
class ToyTask:
    """One toy task: how an example is built (`rule`) and how accuracy is counted (`score`)."""

    name: str
    rule: Callable[[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = field(repr=False)
    # rule(input symbols, alphabet) -> target symbols
    rule_ids: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] = field(repr=False)
    # rule_ids(alphabet indices (B, L), lengths (B,)) -> target indices (B, L)
    probe: tuple[str, ...]  # the fixed example whose attention is snapshotted while training
    alphabet: tuple[str, ...] = ALPHABET
    min_len: int = 4
    max_len: int = 8

    def __post_init__(self) -> None:
        if len(set(self.alphabet)) != len(self.alphabet) or not self.alphabet:
            raise ValueError("the alphabet must be a non-empty list of distinct symbols")
        if set(self.alphabet) & set(SPECIALS):
            raise ValueError(f"the alphabet may not use the special symbols {SPECIALS}")
        if not 1 <= self.min_len <= self.max_len:
            raise ValueError(
                f"lengths must satisfy 1 <= min_len <= max_len, got {self.min_len}, {self.max_len}"
            )
        self.check(self.probe)

    # --- vocabulary ---------------------------------------------------------------------------
    @property
    def vocab(self) -> tuple[str, ...]:
        """Every symbol by id: the three specials, then the alphabet."""
        return SPECIALS + self.alphabet

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def width(self) -> int:
        """Padded length S = T of every batch: max_len symbols plus BOS or EOS."""
        return self.max_len + 1

    def check(self, symbols: Sequence[str], *, any_length: bool = False) -> tuple[str, ...]:
        """Validate an input sequence; return it as a tuple. Raises a readable ValueError.

        Lengths must be in min_len..max_len, or 1..max_len with `any_length`.
        """
        symbols = tuple(symbols)
        unknown = sorted({s for s in symbols if s not in self.alphabet})
        if unknown:
            raise ValueError(
                f"unknown symbol(s) {', '.join(map(repr, unknown))}: "
                f"use only {' '.join(self.alphabet)}"
            )
        lo = 1 if any_length else self.min_len
        if not lo <= len(symbols) <= self.max_len:
            raise ValueError(
                f"a {self.name} sequence has {lo} to {self.max_len} symbols, got {len(symbols)}"
            )
        return symbols

    def parse(self, text: str, *, any_length: bool = False) -> tuple[str, ...]:
        """Symbols from user text: 'a b c', 'abc' and 'a,b,c' all give ('a', 'b', 'c')."""
        if all(len(s) == 1 for s in self.alphabet):
            symbols = [c for c in text if not c.isspace() and c not in ",;"]
        else:
            symbols = text.replace(",", " ").replace(";", " ").split()
        return self.check(symbols, any_length=any_length)

    def encode(self, symbols: Sequence[str]) -> list[int]:
        return [self.vocab.index(s) for s in symbols]

    def decode(self, ids: Sequence[int], *, stop_at_eos: bool = True) -> tuple[str, ...]:
        """Symbols of ids; stops at the first EOS (by default) and drops PAD and BOS."""
        out = []
        for i in ids:
            i = int(i)
            if i == EOS and stop_at_eos:
                break
            if i not in (PAD, BOS):
                out.append(self.vocab[i])
        return tuple(out)

    def target(self, symbols: Sequence[str]) -> tuple[str, ...]:
        """The correct output for an input sequence (of any length 1..max_len)."""
        return self.rule(self.check(symbols, any_length=True), self.alphabet)

    # --- data ---------------------------------------------------------------------------------
    def batch(self, examples: Sequence[Sequence[str]]) -> ToyBatch:
        """A padded batch of the given input sequences and their targets (from `rule`)."""
        B, L = len(examples), self.max_len
        x = torch.zeros(B, L, dtype=torch.long)  # (B, L) alphabet indices
        y = torch.zeros(B, L, dtype=torch.long)  # (B, L)
        lengths = torch.empty(B, dtype=torch.long)
        for b, xs in enumerate(examples):
            xs = self.check(xs)
            n = len(xs)
            x[b, :n] = torch.tensor([self.alphabet.index(s) for s in xs])
            y[b, :n] = torch.tensor([self.alphabet.index(s) for s in self.rule(xs, self.alphabet)])
            lengths[b] = n
        return self._pack(x, y, lengths)

    def sample(self, n: int, generator: torch.Generator | int) -> ToyBatch:
        """n random examples (uniform length, uniform symbols) drawn from a seeded generator.

        An int seeds a fresh generator, so the same seed always gives the same batch.
        """
        if isinstance(generator, int):
            generator = torch.Generator().manual_seed(generator)
        if n < 1:
            raise ValueError(f"need at least one example, got n={n}")
        A, L = len(self.alphabet), self.max_len
        lengths = torch.randint(self.min_len, L + 1, (n,), generator=generator)  # (B,)
        x = torch.randint(0, A, (n, L), generator=generator)  # (B, L) alphabet indices
        return self._pack(x, self.rule_ids(x, lengths), lengths)

    def _pack(self, x: torch.Tensor, y: torch.Tensor, lengths: torch.Tensor) -> ToyBatch:
        """Token ids with EOS/BOS/PAD from alphabet indices x, y (B, L) and lengths (B,)."""
        B, W = x.shape[0], self.width
        pos = torch.arange(W)[None, :]  # (1, W)
        n = lengths[:, None]  # (B, 1)
        sym = pos < n  # (B, W) where a symbol goes
        z = torch.zeros(B, 1, dtype=torch.long)
        x_, y_ = torch.cat([x, z], 1) + N_SPECIAL, torch.cat([y, z], 1) + N_SPECIAL  # (B, W)
        y_shift = torch.cat([z, y], 1) + N_SPECIAL  # (B, W) y moved one right
        src = torch.where(sym, x_, torch.where(pos == n, EOS, PAD))  # (B, S)
        tgt_out = torch.where(sym, y_, torch.where(pos == n, EOS, PAD))  # (B, T)
        tgt_in = torch.where(pos == 0, BOS, torch.where(pos <= n, y_shift, PAD))  # (B, T)
        return ToyBatch(src=src, tgt_in=tgt_in, tgt_out=tgt_out, lengths=lengths.clone())

    # --- accuracy -----------------------------------------------------------------------------
    def score(self, predicted: torch.Tensor, batch: ToyBatch) -> tuple[float, float]:
        """(token accuracy, exact-sequence accuracy) of predicted ids (B, T) against tgt_out.

        Every non-PAD target position counts, the final EOS included.
        """
        if predicted.shape != batch.tgt_out.shape:
            raise ValueError(
                f"predicted ids have shape {tuple(predicted.shape)}, "
                f"expected {tuple(batch.tgt_out.shape)}"
            )
        real = batch.tgt_out != PAD  # (B, T)
        hit = (predicted == batch.tgt_out) & real  # (B, T)
        token = hit.sum().item() / max(1, real.sum().item())
        exact = (hit | ~real).all(dim=1).float().mean().item()
        return float(token), float(exact)


def mirror_index(t: int, n: int) -> int:
    """The source index that decoder position t reads for reversal: n - 1 - t (0 <= t < n).

    Source index i holds x_{i+1} (no BOS on the source); decoder position t reads BOS (t = 0) or
    y_t and predicts y_{t+1} = x_{n-t}, which is at source index n - 1 - t.
    """
    if not 0 <= t < n:
        raise ValueError(f"decoder position t={t} predicts no symbol for a length {n} input")
    return n - 1 - t


TASKS: dict[str, ToyTask] = {
    "reverse": ToyTask("reverse", _reverse, _reverse_ids, probe=tuple("abcdefgh")),
    "sort": ToyTask("sort", _sort, _sort_ids, probe=tuple("dahcfbge")),
    "copy": ToyTask("copy", _copy, _copy_ids, probe=tuple("abcdefgh")),
}


def get_task(task: str | ToyTask) -> ToyTask:
    """A task by name ('reverse', 'sort', 'copy'), or the task itself."""
    if isinstance(task, ToyTask):
        return task
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}: choose one of {', '.join(TASKS)}")
    return TASKS[task]
