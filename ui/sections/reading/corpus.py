"""The Reading heads page's last section: "What does MiniLM look at?" over the built-in corpus,
beside Clark et al. (2019)'s findings for BERT-base."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from mha_core.interpret import CLARK_2019, CLARK_2019_CITATION, CorpusStatistics
from ui import present, widgets
from ui.compute import reading as compute
from ui.i18n import t
from viz.reading import share_bars

HEADS_LISTED = 6  # a longer list of heads over one half is cut to its largest


def _heads_text(stats: CorpusStatistics, category: str, measure: str) -> str:
    hits = stats.heads_above(category, 0.5, measure)  # largest first
    if not hits:
        return t("reading.corpus.none")
    items = "; ".join(
        t("reading.corpus.head_item", layer=h.layer, head=h.head, share=h.share)
        for h in hits[:HEADS_LISTED]
    )
    if len(hits) > HEADS_LISTED:
        return t("reading.corpus.many", count=len(hits), top=items)
    return items


def _peak(stats: CorpusStatistics, category: str, measure: str) -> tuple[int, float]:
    """The layer with the largest mean share on `category`, and that share."""
    shares = stats.layer_share(category, measure)
    layer = int(np.argmax(shares))
    return layer, float(shares[layer])


def _minilm_counterpart(stats: CorpusStatistics, category: str, threshold) -> str:
    """What the corpus says about the same thing as one of Clark et al.'s findings."""
    if category == "sep" and threshold == 0.5:
        (lw, w), (ln, n) = _peak(stats, "sep", "weights"), _peak(stats, "sep", "norms")
        (cw, cwv), (cn, cnv) = _peak(stats, "cls", "weights"), _peak(stats, "cls", "norms")
        return t(
            "reading.minilm.sep_layers", lw=lw, w=w, ln=ln, n=n, cw=cw, cwv=cwv, cn=cn, cnv=cnv
        )
    if category in ("prev", "next") and threshold == 0.5:
        return t(
            "reading.minilm.heads",
            w=_heads_text(stats, category, "weights"),
            n=_heads_text(stats, category, "norms"),
        )
    if category == "self":
        return t(
            "reading.minilm.self",
            w=float(stats.share("self", "weights").mean()),
            n=float(stats.share("self", "norms").mean()),
        )
    if category == "cls" and threshold is None:
        peak = {c: int(np.argmax(stats.layer_share(c, "weights"))) for c in ("cls", "sep", "punct")}
        return t("reading.minilm.profile", **peak)
    return t("reading.minilm.not_measured")


def corpus(sentences: tuple[str, ...]) -> None:
    """ "What does MiniLM look at?": the corpus pass behind a button (once per process), then the
    per-layer shares, the heads over one half, and Clark et al. (2019) beside them."""
    st.subheader(t("reading.corpus.title"))
    present.prose(t("reading.corpus.what", n=len(sentences)))
    stats = compute.corpus_ready(sentences)
    if stats is None:
        slot = st.empty()
        if not slot.button(t("reading.corpus.run", n=len(sentences)), key="reading.corpus_button"):
            return
        bar = slot.progress(0.0, text=t("reading.corpus.progress", done=0, total=len(sentences)))

        def progress(done: int, total: int) -> None:
            bar.progress(done / total, text=t("reading.corpus.progress", done=done, total=total))

        stats = compute.corpus(sentences, progress)
        slot.empty()
    st.caption(t("reading.corpus.done", n=stats.n_sentences, tokens=stats.n_tokens))
    cats = ("cls", "sep", "punct", "prev", "next")
    shares = np.stack(
        [[stats.layer_share(c, measure) for c in cats] for measure in ("weights", "norms")]
    )  # (2, 5, L)
    fig = share_figure(shares, cats)
    present.prose(t("reading.corpus.fig_what"))
    widgets.plot(fig, key="reading.fig.corpus")

    st.markdown(f"**{t('reading.corpus.heads_title')}**")
    rows = [
        {
            t("reading.corpus.col.category"): t(f"reading.cat.{c}"),
            t("reading.corpus.col.measure"): t(f"reading.measure.{m}"),
            t("reading.corpus.col.heads"): _heads_text(stats, c, m),
        }
        for c in ("prev", "next", "sep", "cls")
        for m in ("weights", "norms")
    ]
    st.table(pd.DataFrame(rows).style.hide(axis="index"))

    st.markdown(f"**{t('reading.corpus.published')}**")
    table = pd.DataFrame(
        [
            {
                t("reading.corpus.col.finding"): t(f"reading.clark.{i}"),
                t("reading.corpus.col.where"): f.where,
                t("reading.corpus.col.minilm"): _minilm_counterpart(stats, f.category, f.threshold),
            }
            for i, f in enumerate(CLARK_2019)
        ]
    )
    st.table(table.style.hide(axis="index"))
    st.info(t("reading.corpus.note"))
    st.caption(t("reading.corpus.cite", citation=CLARK_2019_CITATION))


def share_figure(shares, cats: tuple[str, ...]):
    """Per layer, the share of weight and of value-weighted norm on each category in `cats`
    (shares (2, len(cats), L)), with a line at one half."""
    return share_bars(
        shares,
        cats,
        category_names=[t(f"reading.cat.{c}") for c in cats],
        panel_titles=(t("reading.measure.weights"), t("reading.measure.norms")),
        layer_label=t("reading.layer_word"),
        value_label=t("reading.share"),
        reference=0.5,
        reference_label=t("reading.half"),
    )
