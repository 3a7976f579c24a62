"""Language-model tasks for the decoder-only model: sequences made on the fly from a seed.

Every sequence starts with <bos> at position 0. A batch marks which tokens the task makes
predictable (`predictable`, for accuracy) and which the loss counts (`loss_mask`); position t's
logits predict token t + 1, so token t is scored from the logits at t - 1.

- `induction`: random symbols; a chunk of random length is repeated at a random later offset.
  Inside the repeat, every token after its first is predictable (copy the token that followed
  the current token's earlier occurrence); nothing else is. The offsets vary, so no fixed
  position holds the answer. Olsson et al. (2022) measure induction heads on repeated random
  tokens. The offset can be as short as 2 (the repeat then overlaps the chunk: "xyxyxy").
  Measured here (bench/induction.py): when every offset is at least k (e.g. no overlap, k = 6),
  the trained model predicts the repeat with a *shifted* circuit instead, its layer-0 heads
  reading about k - 1 tokens back and a layer-1 head attending that far past the token after
  the earlier copy, which the previous-token and induction scores miss; a circuit shifted by r
  needs an offset above r, so the repeats at offset 2 leave only r = 1, the canonical circuit.
- `reverse`, `sort`, `copy`: the toy tasks of `toy_tasks` written as one sequence,
  "<bos> a b c | c b a <eos>" (PAD after); the answer and its <eos> are predictable.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field, replace

import torch

from ..transformer.toy_tasks import ToyTask, get_task


def _generator(generator: torch.Generator | int) -> torch.Generator:
    if isinstance(generator, int):
        return torch.Generator().manual_seed(generator)
    return generator


def _check_n(n: int) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"need at least one sequence, got n={n!r}")


@dataclass(frozen=True, eq=False)
class LMBatch:
    """Token ids and masks, all (B, T): int64 tokens, bool masks."""

    tokens: torch.Tensor  # (B, T) <bos> first
    predictable: torch.Tensor  # (B, T) True for a token the task determines from its past
    loss_mask: torch.Tensor  # (B, T) True for a token the training loss counts

    def __len__(self) -> int:
        return self.tokens.shape[0]


@dataclass(frozen=True)
class InductionTask:
    """Random symbols with one chunk repeated later (see the module docstring).

    Layout of a sequence of `seq_len` tokens: <bos>, then random symbols; a chunk of length
    n (min_repeat..max_repeat) starting at s1 >= 1 is copied to s2 = s1 + d, the offset d
    uniform in min_offset..seq_len - n - 1 (then s1 uniform), so s2 + n <= seq_len. With
    d < n the repeat overlaps the chunk and copies its own start: a stretch of period d
    ("xyzxyzxy"). min_offset=None: d >= n (no overlap). Predictable: tokens s2 + 1 .. s2 + n - 1.
    """

    name: str = "induction"
    n_symbols: int = 26
    seq_len: int = 26
    min_repeat: int = 6
    max_repeat: int = 12
    # False: every symbol drawn at random, the chunk's too (Olsson et al.'s repeated random
    # tokens); a chance earlier occurrence of a symbol then leads elsewhere, and the layer-0 heads
    # learn to carry the previous token at every position (bench/induction.py). True: the
    # chunk's symbols differ and occur nowhere else (how head scores are measured)
    unique_chunk: bool = False
    distinct_filler: bool = False  # and the other symbols differ too (`scoring_sample`)
    loss_on_all: bool = False  # True: the loss counts every token after <bos>, not only repeats
    min_offset: int | None = 2  # shortest chunk-to-repeat offset (2..min_repeat; None: n)
    bos: str = "<bos>"

    def __post_init__(self) -> None:
        if not 16 <= self.n_symbols <= 52:
            raise ValueError(f"n_symbols must be 16..52, got {self.n_symbols!r}")
        if not 2 <= self.min_repeat <= self.max_repeat:
            raise ValueError("need 2 <= min_repeat <= max_repeat")
        if self.min_offset is not None and not 2 <= self.min_offset <= self.min_repeat:
            raise ValueError("need 2 <= min_offset <= min_repeat (or min_offset=None)")
        if self.seq_len < 1 + 2 * self.max_repeat:
            raise ValueError(
                f"seq_len must be at least 1 + 2 * max_repeat = {1 + 2 * self.max_repeat}"
            )

    @property
    def symbols(self) -> tuple[str, ...]:
        return tuple((string.ascii_lowercase + string.ascii_uppercase)[: self.n_symbols])

    @property
    def vocab(self) -> tuple[str, ...]:
        """<bos> (id 0), then the symbols."""
        return (self.bos, *self.symbols)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def probe(self) -> tuple[str, ...]:
        """A fixed example (after <bos>): "hsnfb qwertyui pzkc qwertyui", the chunk of 8
        repeated 12 tokens later (cut to seq_len - 1 symbols)."""
        return tuple("hsnfbqwertyuipzkcqwertyuixvagmldjo"[: self.seq_len - 1])

    def sample(self, n: int, generator: torch.Generator | int) -> LMBatch:
        """n random sequences from a seeded generator (an int seeds a fresh one)."""
        _check_n(n)
        g = _generator(generator)
        T = self.seq_len
        length = torch.randint(self.min_repeat, self.max_repeat + 1, (n,), generator=g)  # (B,)
        u1, u2 = torch.rand(n, generator=g), torch.rand(n, generator=g)
        # the offset d = s2 - s1, uniform in [lo, hi], then s1 uniform in [1, T - length - d]
        lo = length if self.min_offset is None else torch.full_like(length, self.min_offset)
        hi = T - length - 1  # (B,) s1 = 1 and the repeat ends at T
        d = lo + (u2 * (hi - lo + 1)).long()  # (B,)
        s1 = 1 + (u1 * (T - length - d)).long()  # (B,)
        s2 = s1 + d  # (B,)
        pos = torch.arange(T)[None, :]  # (1, T)
        in_repeat = (pos >= s2[:, None]) & (pos < (s2 + length)[:, None])  # (B, T)
        src = (pos - d[:, None]).clamp(min=0)  # (B, T) where each repeat token comes from
        if self.unique_chunk:  # chunk: distinct symbols; elsewhere: any of the other symbols
            perm = torch.rand(n, self.n_symbols, generator=g).argsort(1) + 1  # (B, n_symbols)
            chunk, rest = perm[:, : self.max_repeat], perm[:, self.max_repeat :]
            in_first = (pos >= s1[:, None]) & (pos < (s1 + length)[:, None])  # (B, T)
            if self.distinct_filler:  # the filler positions take rest[0], rest[1], ... in order
                filler = ~in_first & ~in_repeat & (pos > 0)  # (B, T)
                pick = (filler.long().cumsum(1) - 1).clamp(0, rest.shape[1] - 1)  # (B, T)
            else:
                pick = torch.randint(0, rest.shape[1], (n, T), generator=g)  # (B, T)
            tokens = rest.gather(1, pick)  # (B, T) filler
            at = (pos - s1[:, None]).clamp(0, self.max_repeat - 1)  # (B, T) index into the chunk
            tokens = torch.where(in_first, chunk.gather(1, at), tokens)
        else:
            tokens = torch.randint(1, self.vocab_size, (n, T), generator=g)  # (B, T)
        tokens[:, 0] = 0  # <bos>
        for t in range(T):  # left to right: an overlapping repeat copies tokens it just wrote
            copied = tokens.gather(1, src[:, t : t + 1])[:, 0]  # (B,)
            tokens[:, t] = torch.where(in_repeat[:, t], copied, tokens[:, t])
        predictable = in_repeat & (pos > s2[:, None])  # (B, T)
        loss_mask = (pos > 0).expand(n, T).clone() if self.loss_on_all else predictable
        return LMBatch(tokens=tokens, predictable=predictable, loss_mask=loss_mask)

    def scoring_sample(self, n: int, generator: torch.Generator | int) -> LMBatch:
        """Sequences for head scores: every symbol differs except the repeated chunk, so every
        earlier occurrence of a token is the chunk's first copy (TransformerLens scores heads
        on a repeated random sequence, where chance repeats are as rare)."""
        try:
            scoring = replace(self, unique_chunk=True, distinct_filler=True)
        except ValueError:  # too few symbols for distinct filler: the task's own sequences
            scoring = self
        return scoring.sample(n, generator)

    def parse(self, text: str) -> tuple[str, ...]:
        """Symbols of user text: one per character, spaces ignored. Raises a readable error."""
        symbols = tuple(c for c in text if not c.isspace())
        unknown = sorted(set(symbols) - set(self.symbols))
        if unknown:
            shown = ", ".join(repr(c) for c in unknown[:8]) + (" ..." if len(unknown) > 8 else "")
            raise ValueError(
                f"unknown symbol(s) {shown}: use only the letters {self.symbols[0]}"
                f"..{self.symbols[-1]}"
            )
        if not 1 <= len(symbols) <= self.seq_len - 1:
            raise ValueError(f"type 1 to {self.seq_len - 1} symbols, got {len(symbols)}")
        return symbols

    def encode(self, symbols) -> torch.Tensor:
        """(T,) ids: <bos>, then the symbols."""
        return torch.tensor([0, *(self.vocab.index(s) for s in symbols)])


@dataclass(frozen=True)
class SeqToSeqLM:
    """A toy task (`toy_tasks.TASKS`) as one sequence: <bos> x | y <eos> PAD.."""

    toy: ToyTask = field(default_factory=lambda: get_task("reverse"))
    sep: str = "|"

    @property
    def name(self) -> str:
        return self.toy.name

    @property
    def vocab(self) -> tuple[str, ...]:
        """<pad> <bos> <eos> (ids 0-2, as in toy_tasks), the separator, then the alphabet."""
        return (*self.toy.vocab[:3], self.sep, *self.toy.alphabet)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def seq_len(self) -> int:
        """<bos>, max_len symbols, |, max_len symbols, <eos>."""
        return 2 * self.toy.max_len + 3

    @property
    def probe(self) -> tuple[str, ...]:
        return (*self.toy.probe, self.sep, *self.toy.target(self.toy.probe))

    def scoring_sample(self, n: int, generator: torch.Generator | int) -> LMBatch:
        """Sequences for head scores: the task's own."""
        return self.sample(n, generator)

    def encode(self, symbols) -> torch.Tensor:
        """(T,) ids: <bos>, then the symbols (alphabet letters and the separator)."""
        return torch.tensor([1, *(self.vocab.index(s) for s in symbols)])

    def sample(self, n: int, generator: torch.Generator | int) -> LMBatch:
        _check_n(n)
        b = self.toy.sample(n, _generator(generator))
        T, L = self.seq_len, self.toy.max_len
        pad, bos, eos, sep = 0, 1, 2, 3
        n_ = b.lengths[:, None]  # (B, 1)
        pos = torch.arange(T)[None, :]  # (1, T)
        x = b.src[:, :L] + 1  # (B, L) toy ids shifted past the separator (PAD stays 1: masked)
        y = b.tgt_out[:, :L] + 1  # (B, L)
        xi = (pos - 1).clamp(0, L - 1).expand(n, T)  # (B, T) index into x for 1 <= t <= n
        yi = (pos - n_ - 2).clamp(0, L - 1)  # (B, T) index into y for n + 2 <= t <= 2n + 1
        tokens = torch.full((n, T), pad)
        tokens = torch.where((pos >= 1) & (pos <= n_), x.gather(1, xi), tokens)
        tokens = torch.where(pos == n_ + 1, sep, tokens)
        answer = (pos >= n_ + 2) & (pos <= 2 * n_ + 1)  # (B, T)
        tokens = torch.where(answer, y.gather(1, yi), tokens)
        tokens = torch.where(pos == 2 * n_ + 2, eos, tokens)
        tokens[:, 0] = bos
        predictable = answer | (pos == 2 * n_ + 2)
        return LMBatch(tokens=tokens, predictable=predictable, loss_mask=predictable.clone())


LM_TASKS = ("induction", "reverse", "sort", "copy")


def get_lm_task(name: str | InductionTask | SeqToSeqLM) -> InductionTask | SeqToSeqLM:
    """A language-model task by name ('induction', 'reverse', 'sort', 'copy'), or the task."""
    if isinstance(name, InductionTask | SeqToSeqLM):
        return name
    if name == "induction":
        return InductionTask()
    if name in LM_TASKS:
        return SeqToSeqLM(get_task(name))
    raise ValueError(f"unknown task {name!r}: choose one of {', '.join(LM_TASKS)}")
