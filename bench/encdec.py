"""Our trace-returning EncoderDecoder against torch's nn.TransformerEncoder/Decoder stacks.

Same weights (copied by state dict), same embeddings and output projection. Two timings, each
the median over interleaved repeats in one process (machine noise hits both alike):
- train: one teacher-forcing step (forward, cross-entropy, backward, Adam step);
- eval:  one forward without gradients (ours builds every trace; torch returns only the output
  and may use its fused fast path).
Prints the ratio ours / torch.

    python bench/encdec.py [--repeats 30] [--threads 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mha_core import EncoderDecoder, EncoderDecoderConfig  # noqa: E402

# (batch, source = target length, d_model, heads, layers)
SIZES = [(32, 8, 32, 4, 1), (32, 12, 64, 4, 2), (64, 16, 128, 8, 2)]
V = 16


class TorchEncDec(nn.Module):
    """nn.TransformerEncoder + nn.TransformerDecoder holding the weights of an EncoderDecoder."""

    def __init__(self, ours: EncoderDecoder) -> None:
        super().__init__()
        cfg = ours.config
        kw = dict(
            dim_feedforward=cfg.d_ff,
            dropout=cfg.dropout,
            activation=cfg.activation,
            batch_first=True,
            norm_first=cfg.norm_first,
        )
        C, h, n = cfg.d_model, cfg.n_heads, cfg.n_layers
        norm = (lambda: nn.LayerNorm(C)) if cfg.norm_first else (lambda: None)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(C, h, **kw), n, norm=norm(), enable_nested_tensor=False
        )
        self.dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(C, h, **kw), n, norm=norm())
        for ref, mine in zip(self.enc.layers, ours.encoder_layers):
            ref.load_state_dict(mine.state_dict())
        for ref, mine in zip(self.dec.layers, ours.decoder_layers):
            ref.load_state_dict(mine.state_dict())
        if cfg.norm_first:
            self.enc.norm.load_state_dict(ours.encoder_norm.state_dict())
            self.dec.norm.load_state_dict(ours.decoder_norm.state_dict())
        self.src_embed = nn.Embedding.from_pretrained(ours.src_embed.weight.clone(), freeze=False)
        self.tgt_embed = nn.Embedding.from_pretrained(ours.tgt_embed.weight.clone(), freeze=False)
        self.proj = nn.Linear(C, cfg.tgt_vocab)
        self.proj.load_state_dict(ours.output_proj.state_dict())
        self.register_buffer("pe", ours.pe.clone())
        self.scale = ours.embed_scale

    def forward(self, src, tgt):
        S, T = src.shape[1], tgt.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)  # torch: True = may NOT attend
        memory = self.enc(self.src_embed(src) * self.scale + self.pe[:S])
        y = self.tgt_embed(tgt) * self.scale + self.pe[:T]
        return self.proj(self.dec(y, memory, tgt_mask=causal, tgt_is_causal=True))


def _median_times(fns, repeats: int, inner: int) -> list[float]:
    times = [[] for _ in fns]
    for i in range(repeats):
        order = list(range(len(fns))) if i % 2 == 0 else list(reversed(range(len(fns))))
        for j in order:
            t0 = time.perf_counter()
            for _ in range(inner):
                fns[j]()
            times[j].append((time.perf_counter() - t0) / inner)
    return [statistics.median(t) for t in times]


def bench(B, T, C, h, n, repeats):
    cfg = EncoderDecoderConfig(V, V, d_model=C, n_heads=h, n_layers=n, max_len=T + 1)
    ours = EncoderDecoder(cfg)
    ref = TorchEncDec(ours)
    g = torch.Generator().manual_seed(0)
    src = torch.randint(0, V, (B, T), generator=g)
    tgt = torch.randint(0, V, (B, T + 1), generator=g)

    ours.eval(), ref.eval()
    with torch.no_grad():  # same numbers (slow path, so that padding is not in play)
        torch.testing.assert_close(
            ours(src, tgt[:, :-1]).logits, ref(src, tgt[:, :-1]), rtol=1e-4, atol=1e-5
        )
    ours.train(), ref.train()
    opt_ours = torch.optim.Adam(ours.parameters(), lr=1e-3)
    opt_ref = torch.optim.Adam(ref.parameters(), lr=1e-3)

    def train_ours():
        logits = ours(src, tgt[:, :-1]).logits
        loss = F.cross_entropy(logits.reshape(-1, V), tgt[:, 1:].reshape(-1))
        opt_ours.zero_grad()
        loss.backward()
        opt_ours.step()

    def train_ref():
        logits = ref(src, tgt[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, V), tgt[:, 1:].reshape(-1))
        opt_ref.zero_grad()
        loss.backward()
        opt_ref.step()

    for _ in range(3):
        train_ours(), train_ref()
    t_train = _median_times([train_ours, train_ref], repeats, 3)

    ours.eval(), ref.eval()

    def eval_ours():
        with torch.inference_mode():
            return ours(src, tgt[:, :-1])

    def eval_ref():
        with torch.inference_mode():
            return ref(src, tgt[:, :-1])

    for _ in range(3):
        eval_ours(), eval_ref()
    t_eval = _median_times([eval_ours, eval_ref], repeats, 5)
    return t_train, t_eval


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: leave as is)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    head = f"{'B':>3} {'T':>3} {'C':>4} {'h':>2} {'L':>2}"
    cols = f"{'ours':>10} {'torch':>8} {'ratio':>6}"
    print(f"{'':>15} {'train step':^26} {'eval forward':^26}")
    print(f"{head} {cols} {cols}")
    for B, T, C, h, n in SIZES:
        (to, tr), (eo, er) = bench(B, T, C, h, n, args.repeats)
        print(
            f"{B:>3} {T:>3} {C:>4} {h:>2} {n:>2} {to * 1e3:>8.2f}ms {tr * 1e3:>6.2f}ms "
            f"{to / tr:>6.2f} {eo * 1e3:>8.2f}ms {er * 1e3:>6.2f}ms {eo / er:>6.2f}"
        )


if __name__ == "__main__":
    main()
