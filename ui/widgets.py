"""Small pieces several pages share."""

from __future__ import annotations

import re
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import viz
from mha_core import MAX_TOKENS, AttentionConfig
from mha_core.layer.export import trace_json, weights_csv
from mha_core.layer.stats import HeadStats, head_focus, is_attention
from ui import a11y, present, url
from ui.compute.attention import sentence_attention, tokenize
from ui.i18n import t
from ui.state import Settings
from viz import a11y as viz_a11y
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
    meta = meta or getattr(fig, "_lens_meta", None) or {}  # a figure drawn before (`plot`)
    k = int(meta.get(viz.PHONE_X_STEP, 1))
    return f"-phone-x{min(k, _PHONE_STEPS[-1])}" if k > 1 else ""


def plot(fig, key: str, where=None, *, on_select=None, focus=None) -> None:
    """Every figure goes out the same way: full width, its own style (viz/theme.py: no Streamlit
    theme, no template, no `layout.meta`: either made the browser draw the chart twice), PNG in
    the toolbar. With `on_select` (a callback), a click on a point reruns the page after calling
    it (read the point with `clicked_point(key)`). A head grid whose key labels would run
    together on a phone (viz.PHONE_X_STEP) goes in a container whose style thins them on narrow
    screens only.

    For a reader who cannot see it or cannot hover (viz/a11y.py reads the figure): its
    accessible name before it (`chart_name`; ui/a11y.py makes it the chart's name), its numbers
    as tables under it when "Show charts as tables" is on, and under a head grid of attention
    weights one computed sentence on where its strongest heads look (`focus`: the weights,
    tokens and titles to read it from, when they are not the ones drawn)."""
    suffix = _phone_suffix(fig)
    if st.session_state.get("shared.present") and not getattr(fig, "_lens_presented", False):
        projector(fig._data, fig._layout)  # presentation mode: projector-sized, once a figure
        fig._lens_presented = True
    meta = fig._layout.pop("meta", None)  # read here; sent, a new copy of it redraws the chart
    if isinstance(meta, dict):
        fig._lens_meta = meta  # a figure drawn twice keeps what it says
    # its margins were fitted to the labels where it was built (viz.figure: the browser draws it
    # once); an unchanged chart is not drawn again on a rerun (viz/revision.py)
    stamp(fig)
    where = where or st
    title, parts = viz_a11y.describe(fig)
    a11y.chart_name(chart_name(title, parts, viz_a11y.labels(fig)), key, where)
    if suffix:
        where = where.container(key=f"{key}{suffix}")
        where.html(PHONE_CSS)
    select = {} if on_select is None else {"on_select": on_select, "selection_mode": "points"}
    where.plotly_chart(
        fig,
        key=key,
        width="stretch",
        theme=None,
        config={"displaylogo": False, "toImageButtonOptions": {"format": "png", "scale": 2}},
        **select,
    )
    heads = focus or getattr(fig, "_lens_heads", None)
    if heads is not None:
        sentence = focus_sentence(heads)
        if sentence:
            where.caption(sentence)
    if a11y.table_mode() and parts:
        box = where.container(key=f"{key}.tables")  # class "st-key-<key>-tables"
        for i, part in enumerate(parts):
            chart_table(part, f"{key}.table{i}", box)


def _words(names: list[str], most: int = 4) -> str:
    """Up to `most` names, then how many more (names with commas apart by semicolons)."""
    sep = "; " if any("," in n for n in names) else ", "
    if len(names) <= most:
        return sep.join(names)
    return t("chart.more", shown=sep.join(names[:most]), n=len(names) - most)


def part_name(part: viz_a11y.Part) -> str:
    """One part of a chart in words, in the app's language."""
    rows, cols = part.shape
    value = part.value or t("chart.values")
    if part.kind in (viz_a11y.HEATMAP, viz_a11y.HEADS_KIND):
        words = {
            "value": value, "rows": rows, "cols": cols,
            "row_title": part.row_title or t("chart.query" if part.heads else "chart.rows"),
            "col_title": part.col_title or t("chart.key" if part.heads else "chart.cols"),
        }  # fmt: skip
        if part.kind == viz_a11y.HEATMAP:
            text = t("chart.heatmap", **words)
        else:
            text = t("chart.heads", n=len(part.heads), names=_words(part.heads), **words)
    else:
        text = t(
            "chart.series", kind=t(f"chart.kind.{part.kind}"), series=_words(part.cols),
            value=value, n=rows + part.cut, x_title=part.row_title or t("chart.x"),
        )  # fmt: skip
    return f"{part.title}: {text}" if part.title else text


def chart_name(title: str, parts: list, labels: list[str] = (), most: int = 4) -> str:
    """A chart's accessible name: its title, then what each of its parts draws; for a chart
    without numbers (a diagram), the words written on it."""
    words = [part_name(p) for p in parts[:most]]
    if len(parts) > most:
        words.append(t("chart.more_parts", n=len(parts) - most))
    if not parts and labels:
        words.append(t("chart.diagram", labels=_words(list(dict.fromkeys(labels)), 12)))
    text = "; ".join(words)
    if title:
        text = f"{title}. {text}" if text else title
    return text or t("chart.unnamed")


def chart_table(part: viz_a11y.Part, key: str, where=None) -> None:
    """A part of a chart as a table the keyboard can move through (`st.dataframe`), its rows
    and columns labelled as on the chart."""
    where = where or st
    values = np.round(part.values.astype(np.float64), 4)
    if part.heads:
        n_q = len(part.rows)
        index = pd.MultiIndex.from_product(
            [part.heads, part.rows],
            names=[t("chart.head"), part.row_title or t("chart.query")],
        )[: values.shape[0]]
        total = len(part.heads) * n_q
    else:
        index = pd.Index(part.rows[: values.shape[0]], name=part.row_title or None)
        total = values.shape[0] + part.cut
    table = pd.DataFrame(values, index=index, columns=pd.Index(part.cols, name=part.col_title))
    where.caption(t("chart.table", name=part_name(part)))
    if part.cut:
        where.caption(t("chart.table_cut", shown=values.shape[0], total=total))
    where.dataframe(table, key=key)


_MD = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


def _literal(text: str) -> str:
    """User text (a token) shown literally in a Markdown caption."""
    return _MD.sub(r"\\\1", str(text))


def focus_sentence(heads: dict, most: int = 3) -> str:
    """One sentence on the heads of a grid that look most at one place (mha_core head_focus):
    "head 1 looks mostly at the previous token (0.62), ...". "" when the grid's values are not
    attention weights (each row a distribution)."""
    weights = heads["weights"]
    if not is_attention(weights):
        return ""
    focus = sorted(head_focus(weights), key=lambda f: -f.weight)[:most]
    keys = list(heads["k"])
    parts = []
    for i, f in enumerate(focus):
        if f.kind == "key":
            token = t("focus.quote", token=_literal(keys[f.key]))
            what = t("focus.first" if f.key == 0 else "focus.key", token=token)
        else:
            what = t(f"focus.{f.kind}")
        head = _literal(heads["titles"][f.head])
        parts.append(
            t("focus.lead" if i == 0 else "focus.other", head=head, what=what, w=f"{f.weight:.2f}")
        )
    if not parts:
        return ""
    text = parts[0] if len(parts) == 1 else (
        t("focus.sep").join(parts[:-1]) + t("focus.and") + parts[-1]
    )  # fmt: skip
    return text[0].upper() + text[1:] + t("focus.end")


def heading(key: str) -> None:
    """A section's title (string `key`) and the paragraph that introduces it (`key_intro`)."""
    st.subheader(t(key))
    present.prose(t(f"{key}_intro"))  # folded away in presentation mode


GRID_FULL = 64  # heads drawn cell by cell up to this many tokens (16 x 64 x 64: ~0.3 MB)


def axis_titles() -> dict:
    """A head grid's axis titles in the app's language (viz.head_grid's q_title, k_title)."""
    return {"q_title": t("chart.query"), "k_title": t("chart.key")}


def head_grid(weights: np.ndarray, q_tokens, k_tokens=None, *, key: str, where=None, **kw) -> None:
    """Every head of `weights` (nh, Tq, Tk) in a grid (viz.head_grid, keyword arguments passed
    on). Over GRID_FULL tokens, each cell is the mean of a block of tokens and a caption says
    so: 16 heads x 512 tokens cell by cell would be 17 MB and a minute in the browser."""
    k_tokens = q_tokens if k_tokens is None else k_tokens
    where = where or st
    kw = {**axis_titles(), **kw}
    focus = None
    if max(len(q_tokens), len(k_tokens)) > GRID_FULL:
        # the sentence under the grid reads the heads token by token, not the blocks drawn
        titles = kw.get("titles") or [f"head {h}" for h in range(weights.shape[0])]
        focus = {"weights": weights, "q": list(q_tokens), "k": list(k_tokens), "titles": titles}
        binned = viz.bin_heads(weights, GRID_FULL)
        n = max(len(q_tokens), len(k_tokens))
        where.caption(t("msg.binned", n=n, q=binned.size_q, k=binned.size_k, most=GRID_FULL))
        kw["value_label"] = t("msg.block_mean", what=kw.get("value_label", "weight"))
        weights = binned.weights
        # an axis short enough to stay token by token (6 target tokens against 512) keeps them
        q_tokens = q_tokens if binned.size_q == 1 else binned.q_labels
        k_tokens = k_tokens if binned.size_k == 1 else binned.k_labels
        kw["numbered"] = False  # the labels say where they are ("32–39")
    plot(viz.head_grid(weights, q_tokens, k_tokens, **kw), key, where, focus=focus)


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
