"""The Encoder-decoder page on the model trained on the Train page (when this session has one):
the same three attentions (encoder self, masked decoder self, cross) of that model reading the
Train page's probe and its own greedy answer, beside the page's seeded model. The choice is a
page control ("encoder_decoder.weights": "seeded" or "trained", `weights=` in the URL)."""

from __future__ import annotations

import numpy as np
import streamlit as st
import torch

from mha_core.lessons.encoder_decoder import PairAttention
from mha_core.transformer.prediction import predict
from ui import controls, present
from ui.i18n import t
from ui.sections import encoder_decoder as sections
from ui.sections.live import live_keys
from ui.state import parse_choice, parse_int

P = sections.P
K_MODEL = f"{P}.weights"
K_TRAINED_LAYER = f"{P}.trained_layer"
MODELS = ("seeded", "trained")
DEFAULTS = {K_MODEL: "seeded", K_TRAINED_LAYER: 0}
URL_PARSERS = {K_MODEL: parse_choice(MODELS), K_TRAINED_LAYER: lambda r: parse_int(r, 0, 7)}


def train_run():
    """The run this session finished (or stopped) on the Train page, if any."""
    return st.session_state.get(live_keys("train")[1])


def model_choice() -> str:
    """Which model the page shows: the seeded one, or the Train page's (offered only when this
    session has one; a link asking for it without one says so and shows the seeded model)."""
    fin = train_run()
    if fin is None:
        if st.session_state.get(K_MODEL) == "trained":
            st.info(t(f"{P}.trained_none"))
        return "seeded"
    return controls.enum_radio(f"{P}.weights", MODELS, key=K_MODEL)


def pair_of(fin) -> tuple[PairAttention, object]:
    """The trained model on its task's probe (greedy answer as the decoder's input)."""
    run = fin.run
    pred = predict(run, run.task.probe)

    def stack(arrays) -> torch.Tensor:
        return torch.from_numpy(np.stack(arrays))

    T = len(pred.tgt_tokens)
    pair = PairAttention(
        src_tokens=pred.src_tokens,
        tgt_tokens=pred.tgt_tokens,
        encoder_self=stack(pred.encoder_self),  # (L, nh, S, S)
        decoder_self=stack(pred.decoder_self),  # (L, nh, T, T)
        decoder_cross=stack(pred.cross),  # (L, nh, T, S)
        causal=torch.ones(T, T, dtype=torch.bool).tril(),
    )
    return pair, pred


def trained(fin) -> None:
    """The Train page's model: what it is, its answer on the probe, and its attentions."""
    c = fin.choice
    pair, pred = pair_of(fin)
    st.markdown(
        t(
            f"{P}.trained_intro",
            task=t(f"train.task.{c.task}"),
            steps=fin.run.steps_done,
            d_model=c.d_model,
            n_heads=c.n_heads,
            n_layers=c.n_layers,
            probe=" ".join(pred.input),
            answer=" ".join(pred.output) or "–",
            expected=" ".join(pred.expected),
        )
    )
    present.prose(t(f"{P}.trained_note"))
    layer = controls.selectbox(
        t(f"{P}.layer"),
        range(pair.n_layers),
        format_func=lambda v: t(f"{P}.layer_option", l=v),
        key=K_TRAINED_LAYER,
    )
    tabs = controls.enum_tabs(f"{P}.tab", sections.VIEWS, key=sections.K_VIEW)
    draw = {v: (lambda v=v: sections.attention_view(pair, layer, v)) for v in sections.VIEWS}
    controls.draw_open(tabs, draw)
