"""Small pieces several pages share."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import viz
from mha_core import MAX_TOKENS, AttentionConfig
from mha_core.layer.export import trace_json, weights_csv
from mha_core.layer.stats import HeadStats
from ui import url
from ui.compute.attention import sentence_attention, tokenize
from ui.i18n import t
from ui.state import Settings
from viz.present import projector
from viz.revision import stamp


def view_tokens(tokens: list[str], limit: int, why: str, where=None) -> list[str]:
    """The first `limit` tokens for one view that cannot draw more, saying so and why."""
    if len(tokens) <= limit:
        return tokens
    (where or st).caption(t("msg.view_capped", n=len(tokens), limit=limit, why=why))
    return tokens[:limit]


def sentence_tokens(settings: Settings, limit: int = MAX_TOKENS) -> list[str]:
    """The tokens of the sidebar sentence, with notices; stops the page when there are none."""
    if not settings.text.strip():
        st.info(t("msg.empty"))
        url.stop()
    tok = tokenize(settings.text, settings.tokenizer, limit)
    if not tok.tokens:
        st.info(t("msg.no_tokens"))
        url.stop()
    if tok.truncated:
        st.warning(t("msg.truncated", n_total=tok.n_total, limit=limit))
    return tok.tokens


def empty_sentence_note(settings: Settings) -> None:
    """On a tab that does not read the sentence: say what to do when the box is empty (the
    tab that reads it says so itself and stops there)."""
    if not settings.text.strip():
        st.info(t("msg.empty"))


FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE


def token_line(tokens) -> str:
    """The tokens numbered by position, each in its own bidi isolate: an Arabic or Hebrew token
    keeps its place in the line instead of being reordered with its neighbours."""
    return "  ".join(f"{i}:{FSI}{tok}{PDI}" for i, tok in enumerate(tokens))


def token_code(tokens) -> None:
    """The numbered tokens as literal text (never markup), wrapped to the width of the page."""
    st.code(token_line(tokens), language=None, wrap_lines=True)


def token_chips(tokens: list[str]) -> None:
    """The tokens as literal text (never markup), numbered by position."""
    with st.expander(t("msg.tokens", n=len(tokens)), expanded=len(tokens) <= 16):
        token_code(tokens)


# Up to this many: on a narrow screen, a chart in a container keyed "...-phone-x<k>" draws only
# every k-th label of its x axes (every k-th tick group, counted in each axis' layer)
_PHONE_STEPS = range(2, 13)
_NTH = ":not(:nth-of-type({k}n+1)) {{display: none}}"
_PHONE_RULES = " ".join(
    ('[class*="-phone-x{k}"] g[class^="x"][class$="tick"]' + _NTH).format(k=k)
    for k in _PHONE_STEPS
)
PHONE_CSS = f"<style>@media (max-width: 480px) {{{_PHONE_RULES}}}</style>"


def _phone_suffix(fig) -> str:
    """The container key's suffix that thins the chart's labels on a phone ("" for none)."""
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    k = int(meta.get(viz.PHONE_X_STEP, 1))
    return f"-phone-x{min(k, _PHONE_STEPS[-1])}" if k > 1 else ""


def plot(fig, key: str, on_select=None, where=None) -> None:
    """Every figure goes out the same way: full width, its own style (viz/theme.py: no Streamlit
    theme, no template, no `layout.meta`: either made the browser draw the chart twice), PNG in
    the toolbar. With `on_select` (a callback), a click on a point reruns the page after calling
    it (read the point with `clicked_point(key)`). A head grid whose key labels would run
    together on a phone (viz.PHONE_X_STEP) goes in a container whose style thins them on narrow
    screens only."""
    suffix = _phone_suffix(fig)
    if st.session_state.get("shared.present"):  # presentation mode: projector-sized
        projector(fig._data, fig._layout)
    fig._layout.pop("meta", None)  # read here; sent, a new copy of it redraws the chart
    # its margins were fitted to the labels where it was built (viz.figure: the browser draws it
    # once); an unchanged chart is not drawn again on a rerun (viz/revision.py)
    stamp(fig)
    if suffix:
        where = (where or st).container(key=f"{key}{suffix}")
        where.html(PHONE_CSS)
    select = {} if on_select is None else {"on_select": on_select, "selection_mode": "points"}
    (where or st).plotly_chart(
        fig,
        key=key,
        width="stretch",
        theme=None,
        config={"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}},
        **select,
    )


def heading(key: str) -> None:
    """A section's title (string `key`) and the paragraph that introduces it (`key_intro`)."""
    st.subheader(t(key))
    st.markdown(t(f"{key}_intro"))


def plot_at(fig, key: str, where=None) -> None:
    """`plot` inside `where` (a column or container), or where the page is when None."""
    plot(fig, key=key, where=where)


GRID_FULL = 64  # heads drawn cell by cell up to this many tokens (16 x 64 x 64: ~0.3 MB)


def head_grid(weights: np.ndarray, q_tokens, k_tokens=None, *, key: str, where=None, **kw) -> None:
    """Every head of `weights` (nh, Tq, Tk) in a grid (viz.head_grid, keyword arguments passed
    on). Over GRID_FULL tokens, each cell is the mean of a block of tokens and a caption says
    so: 16 heads x 512 tokens cell by cell would be 17 MB and a minute in the browser."""
    k_tokens = q_tokens if k_tokens is None else k_tokens
    where = where or st
    if max(len(q_tokens), len(k_tokens)) > GRID_FULL:
        binned = viz.bin_heads(weights, GRID_FULL)
        n = max(len(q_tokens), len(k_tokens))
        where.caption(t("msg.binned", n=n, q=binned.size_q, k=binned.size_k, most=GRID_FULL))
        kw["value_label"] = t("msg.block_mean", what=kw.get("value_label", "weight"))
        weights = binned.weights
        # an axis short enough to stay token by token (6 target tokens against 512) keeps them
        q_tokens = q_tokens if binned.size_q == 1 else binned.q_labels
        k_tokens = k_tokens if binned.size_k == 1 else binned.k_labels
        kw["numbered"] = False  # the labels say where they are ("32–39")
    plot(viz.head_grid(weights, q_tokens, k_tokens, **kw), key=key, where=where)


def clicked_point(key: str) -> list | None:
    """The customdata of the point last clicked in the chart drawn with `key`, if any (Plotly
    reports clicks on scatter points only, not on heatmap cells)."""
    event = st.session_state.get(key)
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return None
    for point in points:
        data = point.get("customdata")
        if isinstance(data, dict):  # a row of a typed array arrives as {"0": .., "1": ..}
            return [data[k] for k in sorted(data, key=int)]
        if data is not None:
            return list(data)
    return None


def head_stats_table(stats: HeadStats, kinds: list[str], key: str) -> None:
    """One row per head: the statistics and what the head looks like, every row visible."""
    table = pd.DataFrame(
        {t(f"stats.col.{name}"): values for name, values in stats.as_dict().items()},
        index=pd.Index([t("stats.head_title", h=h) for h in range(stats.n_heads)]),
    )
    table[t("stats.col.kind")] = [t(f"stats.kind.{k}") for k in kinds]
    st.dataframe(
        table.style.format(precision=4, na_rep="–"),
        height=36 * (len(table) + 1) + 2,
        key=key,
    )


def _csv_bytes(tokens: tuple[str, ...], config: AttentionConfig) -> bytes:
    weights = sentence_attention(tokens, config).attention.weights[0]
    return weights_csv(weights, list(tokens)).encode("utf-8")


def _json_bytes(tokens: tuple[str, ...], config: AttentionConfig) -> bytes:
    return trace_json(sentence_attention(tokens, config)).encode("utf-8")


def download_buttons(tokens: tuple[str, ...], config: AttentionConfig, key: str) -> None:
    """CSV of every weight (long form) and JSON of the whole trace; built only when clicked,
    and clicking does not rerun the page."""
    files = (
        ("csv", _csv_bytes, "attention_weights.csv", "text/csv"),
        ("json", _json_bytes, "attention_trace.json", "application/json"),
    )
    for col, (kind, build, file_name, mime) in zip(st.columns(len(files)), files):
        col.download_button(
            t(f"attention.download_{kind}"),
            data=partial(build, tokens, config),
            file_name=file_name,
            mime=mime,
            on_click="ignore",
            key=f"{key}.download_{kind}",
        )
    st.caption(t("attention.download_help"))
