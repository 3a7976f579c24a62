"""The encoder-decoder page's sections: the sentences, the page's controls, the block diagram and
one function per part (attention, padding, Add & Norm, dropout), each drawing from a result of
`ui.compute.encoder_decoder` and the reader's choices, nothing else."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import viz
from mha_core import MAX_TOKENS, EncoderDecoderConfig
from mha_core.lessons.encoder_decoder import DropoutComparison, PaddedBatch, PairAttention
from ui import controls, present, widgets
from ui.compute.attention import tokenize
from ui.i18n import t
from ui.numbers import num
from ui.params import HEAD_INDEX, HEADS, TOKENS, OneOf, Param, Range, head_indices, index
from ui.state import MAX_SEED, URL_TEXT_CHARS, parse_bool
from viz.diagram import DIAGRAM_LABELS, block_diagram
from viz.matrix import matrix_heatmap
from viz.transformer import mark_cells, mask_figure, normalised_matrix, padding_mask_figure

P = "encoder_decoder"
K_TARGET = f"{P}.target"
K_LAYERS = f"{P}.layers"
K_LAYER = f"{P}.layer"
K_PRE_NORM = f"{P}.pre_norm"
K_PART = f"{P}.part"
K_CUT = f"{P}.cut"
K_HEAD = f"{P}.head"
K_P = f"{P}.p"
K_DROP_SEED = f"{P}.dropout_seed"
K_VIEW = f"{P}.view"  # the open attention view: only its charts are drawn
K_MODEL = f"{P}.weights"  # the seeded model, or the Train page's (encoder_decoder_trained.py)
K_TRAINED_LAYER = f"{P}.trained_layer"
MODELS = ("seeded", "trained")
LINK_TRAINED_LAYERS = 8  # a trained layer a link may name (the run is not known then)

PARTS = ("attention", "padding", "addnorm", "dropout")
VIEWS = ("encoder", "decoder", "cross")  # the attention part's views
VIEW_BOXES = {"encoder": "enc.self_attn", "decoder": "dec.masked_attn", "cross": "dec.cross_attn"}
LAYER_COUNTS = (1, 2, 3, 4)
DROPOUT_PS = tuple(round(0.05 * i, 2) for i in range(19))  # 0.0 ... 0.9
DEFAULT_TARGET = "Je veux vivre en Europe."


def _dropout_p(raw: str) -> float:
    return round(float(raw), 2)


PARAMS = (
    # in the URL only while it is short enough for a link
    Param(K_TARGET, DEFAULT_TARGET, str, in_url=lambda v: len(v) <= URL_TEXT_CHARS),
    Param(K_LAYERS, 2, Range(1, max(LAYER_COUNTS))),
    Param(K_LAYER, 0, index(max(LAYER_COUNTS)), depends_on=frozenset({"layers"})),
    Param(K_PRE_NORM, False, parse_bool),
    Param(K_PART, "attention", OneOf(PARTS)),
    # sentence 2 of the batch: the first `cut` tokens of the source
    Param(K_CUT, 3, Range(1, MAX_TOKENS), depends_on=TOKENS | {"target"}),
    # drawn for some parts only, below a stop for an empty sentence: valid for the sidebar's
    # heads meanwhile
    Param(K_HEAD, 0, HEAD_INDEX, within=head_indices, depends_on=HEADS),
    Param(K_P, 0.2, OneOf(DROPOUT_PS, _dropout_p)),
    Param(K_DROP_SEED, 0, Range(0, MAX_SEED)),
    Param(K_VIEW, VIEWS[0], OneOf(VIEWS)),
    Param(K_MODEL, "seeded", OneOf(MODELS)),
    Param(K_TRAINED_LAYER, 0, index(LINK_TRAINED_LAYERS)),
)


def _num(x: float) -> str:
    """A computed number as the page states it: 3 significant digits, exact 0 as "0"."""
    return num(x)


# --- the sentences ---------------------------------------------------------------------------
def source_target_tokens(text: str, tokenizer: str, which: str) -> list[str]:
    """Tokens of the source ("source": the sidebar's sentence, the shared notices) or of the
    target ("target"); a notice when there are none (empty list) or when the text was cut."""
    prefix = "msg" if which == "source" else f"{P}.target"
    if not text.strip():
        st.info(t(f"{prefix}.empty"))
        return []
    tok = tokenize(text, tokenizer, MAX_TOKENS)
    if not tok.tokens:
        st.info(t(f"{prefix}.no_tokens" if which == "target" else "msg.no_tokens"))
        return []
    if tok.truncated:
        st.warning(t(f"{prefix}.truncated", n_total=tok.n_total, limit=MAX_TOKENS))
    return list(tok.tokens)


# --- the controls ----------------------------------------------------------------------------
def model_controls() -> tuple[int, int, bool]:
    """Layers N, the layer shown, pre-norm: (n_layers, layer, norm_first)."""
    c1, c2, c3 = st.columns(3)
    n_layers = controls.select_slider(
        t(f"{P}.layers"), LAYER_COUNTS, key=K_LAYERS, help=t(f"{P}.layers_help"), where=c1
    )
    layer = controls.selectbox(
        t(f"{P}.layer"),
        range(n_layers),
        format_func=lambda v: t(f"{P}.layer_option", l=v),
        key=K_LAYER,
        help=t(f"{P}.layer_help"),
        where=c2,
    )
    norm_first = controls.toggle(
        t(f"{P}.pre_norm"), key=K_PRE_NORM, help=t(f"{P}.pre_norm_help"), where=c3
    )
    return n_layers, layer, norm_first


def part_picker() -> str:
    return controls.enum_radio(f"{P}.part", PARTS, key=K_PART)


def head_picker(n_heads: int, where=None) -> int:
    return controls.selectbox(
        t(f"{P}.head"),
        range(n_heads),
        format_func=lambda h: t(f"{P}.head_option", h=h),
        key=K_HEAD,
        where=where,
    )


def batch_controls(n_src: int, n_heads: int, part: str) -> tuple[int | None, int]:
    """Sentence 2 of the batch is the first n tokens of the source: (n, head). n is None when
    the source has one token (no shorter sentence); the head picker is drawn for padding only."""
    cut_col, head_col = st.columns([3, 1])
    head = head_picker(n_heads, head_col) if part == "padding" else 0
    if n_src < 2:
        st.info(t(f"{P}.pad.one_token"))
        return None, head
    if n_src == 2:
        return 1, head
    cut = controls.select_slider(
        t(f"{P}.pad.cut"),
        range(1, n_src),
        key=K_CUT,
        help=t(f"{P}.pad.cut_help"),
        where=cut_col,
    )
    return cut, head


def part_intro(part: str, layer: int, norm_first: bool) -> None:
    """What the part shows, in a sentence or two, above its controls."""
    if part == "attention":
        present.prose(t(f"{P}.attn.text"))
    elif part == "padding":
        present.prose(t(f"{P}.pad.text"))
    elif part == "addnorm":
        present.prose(t(f"{P}.norm.text_pre" if norm_first else f"{P}.norm.text_post", layer=layer))
    elif part == "dropout":
        present.prose(t(f"{P}.drop.text"))


def _resample() -> None:
    ss = st.session_state
    ss[K_DROP_SEED] = (int(ss.get(K_DROP_SEED, 0)) + 1) % (MAX_SEED + 1)


def dropout_controls(n_heads: int) -> tuple[float, int]:
    """The probability p and the head; the button draws a new mask (a new seed)."""
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    p = controls.select_slider(
        t(f"{P}.drop.p"), DROPOUT_PS, key=K_P, help=t(f"{P}.drop.p_help"), where=c1
    )
    head = head_picker(n_heads, c2)
    c3.button(t(f"{P}.drop.resample"), key=f"{P}.resample", on_click=_resample)
    return p, head


# --- the block diagram -----------------------------------------------------------------------
def highlighted_boxes(part: str, norm_first: bool, view: str) -> set[str]:
    """The boxes of `viz.diagram.block_layout` that the part shown below lives in (for the
    attention part: the open view's attention)."""
    if part == "attention":
        return {VIEW_BOXES[view]}
    if part == "addnorm":
        return {"enc.add1", "enc.norm2"} if norm_first else {"enc.add_norm1"}
    return {"enc.self_attn"}  # padding and dropout act inside the encoder's self-attention


def diagram(cfg: EncoderDecoderConfig, layer: int, part: str, view: str) -> None:
    """One encoder and one decoder layer as the configuration builds them; the part shown below
    highlighted."""
    st.markdown(
        t(
            f"{P}.model",
            d_model=cfg.d_model,
            n_heads=cfg.n_heads,
            d_k=cfg.d_k,
            d_ff=cfg.d_ff,
            n=cfg.n_layers,
        )
    )
    labels = {k: t(f"{P}.box.{k}") for k in DIAGRAM_LABELS if k != "repeat"}
    labels["repeat"] = t(f"{P}.box.repeat", n=cfg.n_layers)
    highlight = highlighted_boxes(part, cfg.norm_first, view)
    fig = block_diagram(cfg.norm_first, cfg.n_layers, labels, highlight)
    st.caption(
        t(
            f"{P}.diagram_pre" if cfg.norm_first else f"{P}.diagram_post",
            n=cfg.n_layers,
            layer=layer,
        )
    )
    widgets.plot(fig, f"{P}.fig.diagram")


# --- the parts -------------------------------------------------------------------------------
def _head_titles(n_heads: int) -> list[str]:
    return [t("stats.head_title", h=h) for h in range(n_heads)]


def attention_view(pa: PairAttention, layer: int, view: str) -> None:
    """One of the three attentions of layer `layer`, every head."""
    nh, S, T = pa.encoder_self.shape[1], len(pa.src_tokens), len(pa.tgt_tokens)
    weight = t(f"{P}.weight")
    src, tgt = list(pa.src_tokens), list(pa.tgt_tokens)

    if view == "encoder":
        st.subheader(t(f"{P}.enc.title", layer=layer))
        lo, hi = pa.row_sum_range("encoder_self", layer)
        st.caption(t(f"{P}.enc.caption", S=S, lo=f"{lo:.6f}", hi=f"{hi:.6f}"))
        widgets.head_grid(
            pa.encoder_self[layer].numpy(), src, titles=_head_titles(nh), value_label=weight,
            key=f"{P}.fig.encoder_self",
        )  # fmt: skip
    elif view == "decoder":
        st.subheader(t(f"{P}.dec.title", layer=layer))
        # the mask beside the text that explains it, at a size where "−∞" can be read; the
        # heads below at the full width (a column beside them left the mask a thumbnail)
        mask_col, text_col = st.columns([2, 3])
        text_col.caption(t(f"{P}.dec.caption", T=T, upper=_num(pa.above_diagonal_max(layer))))
        mask = mask_figure(
            pa.causal.numpy(),
            tgt,
            title=t(f"{P}.dec.mask_title"),
            x_title=t(f"{P}.key"),
            y_title=t(f"{P}.query"),
            value_label=t(f"{P}.dec.mask_value"),
        )
        widgets.plot(mask, f"{P}.fig.causal_mask", mask_col)
        widgets.head_grid(
            pa.decoder_self[layer].numpy(), tgt, titles=_head_titles(nh), value_label=weight,
            key=f"{P}.fig.decoder_self",
        )  # fmt: skip
    else:
        st.subheader(t(f"{P}.cross.title", layer=layer))
        lo, hi = pa.row_sum_range("decoder_cross", layer)
        st.caption(t(f"{P}.cross.caption", T=T, S=S, lo=f"{lo:.6f}", hi=f"{hi:.6f}"))
        widgets.head_grid(
            pa.decoder_cross[layer].numpy(), tgt, src, titles=_head_titles(nh),
            value_label=weight, key=f"{P}.fig.cross",
        )  # fmt: skip


def _padded_labels(bv: PaddedBatch, b: int) -> list[str]:
    n_pad = bv.padding_mask.shape[1] - len(bv.tokens[b])
    return [*bv.tokens[b], *[t(f"{P}.pad.token")] * n_pad]


def padding(bv: PaddedBatch, head: int) -> None:
    """The padding mask of the batch, the shorter sentence's attention in it, empty rows."""
    B, Pn = bv.padding_mask.shape
    rows = [t(f"{P}.pad.sentence", b=b + 1, n=len(s)) for b, s in enumerate(bv.tokens)]
    fig = padding_mask_figure(
        [list(s) for s in bv.tokens],
        row_labels=rows,
        pad_label=t(f"{P}.pad.token"),
        title=t(f"{P}.pad.mask_title", n=bv.n_padded, P=Pn),
        col_title=t(f"{P}.position"),
        value_label=t(f"{P}.pad.mask_value"),
    )
    widgets.plot(fig, f"{P}.fig.padding_mask")
    if bv.n_padded == 0:
        st.info(t(f"{P}.pad.none"))
        return
    b = max(range(B), key=lambda i: bv.padding_mask[i].sum())  # the most padded sentence
    labels = _padded_labels(bv, b)
    weight = t(f"{P}.weight")
    st.markdown(
        t(
            f"{P}.pad.keys",
            b=b + 1,
            h=head,
            layer=bv.layer,
            pad_max=_num(bv.padded_key_max),
            diff=_num(bv.alone_max_diff),
        )
    )
    c1, c2 = st.columns(2)
    common = dict(value_label=weight, x_title=t(f"{P}.key"), y_title=t(f"{P}.query"), fmt=".8g")
    fig = viz.attention_heatmap(
        bv.weights[b, head].numpy(), labels, title=t(f"{P}.pad.fig_keys", b=b + 1), **common
    )
    widgets.plot(fig, f"{P}.fig.padded_keys", c1)
    fig = viz.attention_heatmap(
        bv.query_masked[b, head].numpy(),
        labels,
        title=t(f"{P}.pad.fig_queries", b=b + 1),
        **common,
    )
    widgets.plot(fig, f"{P}.fig.padded_queries", c2)
    st.markdown(
        t(
            f"{P}.pad.empty_rows",
            nan_rows=bv.plain_softmax_nan_rows,
            empty=int(bv.empty_rows.sum()),
            empty_max=_num(bv.empty_row_max),
            nans=bv.nan_count,
        )
    )


def add_norm(bv: PaddedBatch) -> None:
    """The residual sum, LayerNorm (per token) beside BatchNorm (per feature), with statistics."""
    N, C = int(bv.real.sum()), bv.residual.shape[-1]  # the intro is above the controls
    if len(bv.tokens) > 1:
        n = len(bv.tokens[1])
        st.caption(t(f"{P}.norm.batch_one" if n == 1 else f"{P}.norm.batch", n=n, N=N))
    rows = [t(f"{P}.batch_row", b=b + 1, token=tok) for b, tok in bv.row_labels]
    labels = dict(
        row_title=t(f"{P}.token"),
        col_title=t(f"{P}.feature"),
        value_label=t(f"{P}.value"),
        stat_labels=(t(f"{P}.norm.mean"), t(f"{P}.norm.std")),
    )
    fig = normalised_matrix(
        bv.real_rows(bv.residual).numpy(),
        rows,
        axis=None,
        title=t(f"{P}.norm.fig_add_pre" if bv.norm_first else f"{P}.norm.fig_add"),
        **labels,
    )
    widgets.plot(fig, f"{P}.fig.residual")

    ln, bn = bv.layer_out, bv.batch_out  # statistics OF the two outputs
    ln_mean, ln_std = bv.real_rows(ln.layer_mean), bv.real_rows(ln.layer_std)
    bn_tok = bv.real_rows(bn.layer_mean)
    ln_stats = t(
        f"{P}.norm.ln_stats",
        C=C,
        mean=_num(float(ln_mean.abs().max())),
        std_lo=f"{float(ln_std.min()):.6f}",
        std_hi=f"{float(ln_std.max()):.6f}",
        f_lo=f"{float(ln.batch_mean.min()):.3f}",
        f_hi=f"{float(ln.batch_mean.max()):.3f}",
        diff=_num(bv.model_norm_max_diff),
    )
    bn_stats = t(
        f"{P}.norm.bn_stats",
        N=N,
        mean=_num(float(bn.batch_mean.abs().max())),
        std_lo=f"{float(bn.batch_std.min()):.6f}",
        std_hi=f"{float(bn.batch_std.max()):.6f}",
        t_lo=f"{float(bn_tok.min()):.3f}",
        t_hi=f"{float(bn_tok.max()):.3f}",
    )
    panels = {  # kind -> (output, its mean and std along the normalised axis, note, statistics)
        "ln": (bv.norms.layer_normed, ln_mean, ln_std, t(f"{P}.norm.ln_axis", C=C), ln_stats),
        "bn": (
            bv.norms.batch_normed,
            bn.batch_mean,
            bn.batch_std,
            t(f"{P}.norm.bn_axis", N=N),
            bn_stats,
        ),
    }
    for where, (kind, (normed, mean, std, note, stats)) in zip(st.columns(2), panels.items()):
        fig = normalised_matrix(
            bv.real_rows(normed).numpy(),
            rows,
            axis="rows" if kind == "ln" else "cols",  # LayerNorm per token, BatchNorm per feature
            mean=mean.numpy(),
            std=std.numpy(),
            title=t(f"{P}.norm.fig_{kind}"),
            axis_note=note,
            **labels,
        )
        widgets.plot(fig, f"{P}.fig.{'layernorm' if kind == 'ln' else 'batchnorm'}", where)
        where.markdown(stats)
    if min(float(ln_std.min()), float(bn.batch_std.min())) < 0.5:
        st.caption(t(f"{P}.norm.constant"))
    present.prose(t(f"{P}.norm.why"))


def dropout(dv: DropoutComparison, tokens: list[str], head: int, layer: int, seed: int) -> None:
    """One head's weights in eval mode and in training mode; row sums side by side."""
    p = dv.train.p
    c1, c2 = st.columns(2)
    common = dict(
        row_title=t(f"{P}.query"),
        col_title=t(f"{P}.key"),
        value_label=t(f"{P}.weight"),
        colorscale=viz.DEFAULT_PALETTE,
        signed=False,
        zmax=float(dv.train.output.max()) or 1.0,  # one colour scale for both
    )
    fig = matrix_heatmap(
        dv.eval.output.numpy(), tokens, tokens, title=t(f"{P}.drop.fig_eval"), **common
    )
    widgets.plot(fig, f"{P}.fig.dropout_eval", c1)
    fig = matrix_heatmap(
        dv.train.output.numpy(),
        tokens,
        tokens,
        title=t(f"{P}.drop.fig_train", p=f"{p:.2f}"),
        **common,
    )
    if p > 0.0:  # the dropped weights (exactly 0) crossed out: they looked like small kept ones
        fig = mark_cells(fig, (~dv.train.keep).numpy(), t(f"{P}.drop.dropped_cell"))
    widgets.plot(fig, f"{P}.fig.dropout_train", c2)
    if p > 0.0:
        c2.caption(t(f"{P}.drop.crossed"))
    train_sums, eval_sums = dv.train.row_sums.double(), dv.eval.row_sums.double()
    if p == 0.0:
        st.markdown(t(f"{P}.drop.p_zero"))
    else:
        lo, hi = dv.kept_ratio_range()
        st.markdown(
            t(
                f"{P}.drop.stats",
                dropped=dv.n_dropped,
                total=dv.n_total,
                frac=f"{dv.train.dropped_fraction:.1%}",
                p=f"{p:.2f}",
                scale=num(dv.train.scale, 6),
                lo=f"{lo:.6f}",
                hi=f"{hi:.6f}",
                rs_lo=f"{float(train_sums.min()):.4f}",
                rs_hi=f"{float(train_sums.max()):.4f}",
                ev_lo=f"{float(eval_sums.min()):.6f}",
                ev_hi=f"{float(eval_sums.max()):.6f}",
            )
        )
    st.caption(t(f"{P}.drop.seed", seed=seed, h=head, layer=layer))
    table = pd.DataFrame(
        {
            t(f"{P}.drop.col_eval"): eval_sums.numpy(),
            t(f"{P}.drop.col_train"): train_sums.numpy(),
            t(f"{P}.drop.col_dropped"): (~dv.train.keep).sum(dim=-1).numpy(),
        },
        index=pd.Index([f"{i}: {tok}" for i, tok in enumerate(tokens)], name=t(f"{P}.query")),
    )
    with st.expander(t(f"{P}.drop.table"), expanded=len(tokens) <= 8):
        st.dataframe(table.style.format(precision=6), key=f"{P}.dropout_table")


def checked_note() -> None:
    with st.expander(t(f"{P}.checked.title")):
        st.markdown(t(f"{P}.checked.text"))
