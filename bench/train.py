"""Training a tiny Transformer live: time to 99% on reversal, and step time against torch.

1. The page's default run, `train_toy(task="reverse", seed=0)`: wall time (what a learner waits
   for, snapshots included), final exact-sequence accuracy of greedy decoding on fresh
   examples, and the first step at which that accuracy reaches 99% (a second, identical run
   evaluated every `--every` steps; evaluation time is not counted). Target: <= 30 s.
2. Our training step (forward with every trace, loss, backward, Adam) against the same
   architecture built from `torch.nn.TransformerEncoderLayer` / `TransformerDecoderLayer`
   (batch_first, pre-norm, same sizes, the same weights copied in), measured in the same
   process, interleaved, median of `--repeats`, both with the thread count that training uses
   (`TRAIN_THREADS`, 1) unless `--threads` says otherwise. Target ratio ours / torch: <= 1.3.

The machine is shared: the load average is printed before and after; compare runs only when
it was similar.

    python bench/train.py [--repeats 60] [--inner 5] [--every 25] [--threads N] [--skip-run]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from mha_core.transformer.prediction import evaluate  # noqa: E402
from mha_core.transformer.threads import TRAIN_THREADS  # noqa: E402
from mha_core.transformer.toy_tasks import PAD, get_task  # noqa: E402
from mha_core.transformer.training import DEFAULTS, ToyTrainer, train_toy  # noqa: E402


class TorchEncoderDecoder(nn.Module):
    """Our EncoderDecoder's architecture from torch's Transformer layers (same parameter names,
    so our state dict loads into it)."""

    def __init__(self, ours: nn.Module) -> None:
        super().__init__()
        cfg = ours.config
        C = cfg.d_model
        kw = dict(
            dim_feedforward=cfg.d_ff,
            dropout=0.0,
            activation=cfg.activation,
            layer_norm_eps=cfg.layer_norm_eps,
            batch_first=True,
            norm_first=cfg.norm_first,
        )
        self.src_embed = nn.Embedding(cfg.src_vocab, C)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab, C)
        self.register_buffer("pe", ours.pe.clone(), persistent=False)
        self.encoder_layers = nn.ModuleList(
            nn.TransformerEncoderLayer(C, cfg.n_heads, **kw) for _ in range(cfg.n_layers)
        )
        self.decoder_layers = nn.ModuleList(
            nn.TransformerDecoderLayer(C, cfg.n_heads, **kw) for _ in range(cfg.n_layers)
        )
        self.encoder_norm = nn.LayerNorm(C, eps=cfg.layer_norm_eps) if cfg.norm_first else None
        self.decoder_norm = nn.LayerNorm(C, eps=cfg.layer_norm_eps) if cfg.norm_first else None
        self.output_proj = nn.Linear(C, cfg.tgt_vocab)
        self.embed_scale = ours.embed_scale
        self.load_state_dict(ours.state_dict())

    def forward(self, src, tgt, *, src_key_padding_mask=None, tgt_key_padding_mask=None):
        S, T = src.shape[1], tgt.shape[1]
        x = self.src_embed(src) * self.embed_scale + self.pe[:S]  # (B, S, C)
        for layer in self.encoder_layers:
            x = layer(x, src_key_padding_mask=src_key_padding_mask)
        if self.encoder_norm is not None:
            x = self.encoder_norm(x)
        y = self.tgt_embed(tgt) * self.embed_scale + self.pe[:T]  # (B, T, C)
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)  # (T, T) True = may NOT attend
        for layer in self.decoder_layers:
            y = layer(
                y,
                x,
                tgt_mask=causal,
                tgt_is_causal=True,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=src_key_padding_mask,
            )
        if self.decoder_norm is not None:
            y = self.decoder_norm(y)
        return self.output_proj(y)  # (B, T, V)


def default_run(every: int) -> None:
    t0 = time.perf_counter()
    train_toy(task="reverse", seed=0, steps=1)  # once per process: torch.optim's import, first ops
    print(f"first use in a fresh process (one-time start-up): {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    run = train_toy(task="reverse", seed=0)
    wall = time.perf_counter() - t0
    acc = evaluate(run, n=2000, seed=4321)
    print(
        f"default run train_toy('reverse', seed=0): {run.steps_done} steps, wall {wall:.1f} s "
        f"({run.elapsed_s / run.steps_done * 1e3:.1f} ms/step incl. snapshots), "
        f"greedy exact-sequence accuracy on 2000 fresh examples {acc:.4f}"
    )
    trainer = ToyTrainer(task="reverse", seed=0)
    first = None
    while not trainer.done:
        trainer.advance(every)
        r = trainer.result()
        a = evaluate(r, n=1000, seed=4321)
        if a >= 0.99 and first is None:
            first = r.history[-1]
            print(
                f"first reaches >= 99% (greedy, 1000 fresh examples, checked every {every} "
                f"steps): step {first.step}, {first.elapsed_s:.1f} s of training, acc {a:.4f}"
            )
    if first is None:
        print("never reached 99% within the default steps")


def step_times(repeats: int, inner: int) -> None:
    task = get_task("reverse")
    trainer = ToyTrainer(task="reverse", seed=0)
    ours = trainer.model
    ref = TorchEncoderDecoder(ours)
    b = task.sample(DEFAULTS.batch_size, 0)
    kw = dict(src_key_padding_mask=b.src_pad, tgt_key_padding_mask=b.tgt_pad)
    with torch.no_grad():
        ours.eval(), ref.eval()
        lo, lr_ = ours(b.src, b.tgt_in, **kw).logits, ref(b.src, b.tgt_in, **kw)
        real = b.tgt_in != PAD  # torch leaves padded queries unspecified on some paths
        err = (lo - lr_)[real].abs().max().item()
        torch.testing.assert_close(lo[real], lr_[real], rtol=1e-4, atol=1e-5)  # same work
        ours.train(), ref.train()
    print(f"same weights, same logits (max abs diff {err:.2e})")

    def make_step(model, get_logits):
        opt = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), foreach=True)

        def step():
            logits = get_logits()
            loss = F.cross_entropy(logits.flatten(0, 1), b.tgt_out.flatten(), ignore_index=PAD)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            return loss.item()

        return step

    run_ours = make_step(ours, lambda: ours(b.src, b.tgt_in, **kw).logits)
    run_ref = make_step(ref, lambda: ref(b.src, b.tgt_in, **kw))
    for _ in range(5):
        run_ours(), run_ref()
    wall = {run_ours: [], run_ref: []}
    cpu = {run_ours: [], run_ref: []}  # this thread's CPU time: less hurt by a busy machine
    for i in range(repeats):
        order = (run_ref, run_ours) if i % 2 == 0 else (run_ours, run_ref)
        for fn in order:
            c0, t0 = time.thread_time(), time.perf_counter()
            for _ in range(inner):
                fn()
            wall[fn].append((time.perf_counter() - t0) / inner)
            cpu[fn].append((time.thread_time() - c0) / inner)
    cfg = ours.config
    print(
        f"training step (B={b.src.shape[0]}, S=T={b.src.shape[1]}, d_model={cfg.d_model}, "
        f"heads={cfg.n_heads}, layers={cfg.n_layers}; median of {repeats} x {inner}, interleaved)"
    )
    for name, d in (("wall", wall), ("cpu", cpu)):
        mo, mr = statistics.median(d[run_ours]), statistics.median(d[run_ref])
        print(
            f"  {name:>4}: ours {mo * 1e3:6.2f} ms, torch.nn layers {mr * 1e3:6.2f} ms, "
            f"ratio ours/torch {mo / mr:.2f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=60)
    ap.add_argument("--inner", type=int, default=5)
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--threads", type=int, default=TRAIN_THREADS)
    ap.add_argument("--skip-run", action="store_true", help="only the step-time comparison")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, defaults {DEFAULTS}")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if not args.skip_run:
        default_run(args.every)
    step_times(args.repeats, args.inner)
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
