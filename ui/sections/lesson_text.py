"""The Lesson page's words: each station's question, option labels, intro and explanation,
with the live numbers (tokens quoted as literal text)."""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass

from mha_core.lessons import quiz
from ui.compute import lesson as compute
from ui.i18n import t
from ui.numbers import num, size
from ui.state import Settings

P = "lesson"

_MD = set(string.punctuation)
FSI, PDI = "\u2068", "\u2069"


def quoted(token: str) -> str:
    """A token in prose: literal (every ASCII punctuation escaped, so markup, links, LaTeX and
    emoji codes stay text), in quotes, in a bidi isolate."""
    text = "".join(f"\\{c}" if c in _MD else c for c in token)
    return f"“{FSI}{text}{PDI}”"


def quoted_at(tokens, i: int) -> str:
    """Token i of `tokens` in prose; with its position when the same token occurs twice or more
    ("the cat saw the dog": which “the”?)."""
    i = i % len(tokens)
    if sum(tok == tokens[i] for tok in tokens) < 2:
        return quoted(tokens[i])
    return t("lesson.token_at", token=quoted(tokens[i]), i=i)


def token_label(tokens, i: int) -> str:
    return t("lesson.token_option", i=i, token=tokens[i])


# --- each station: the question from the core, and the reveal -----------------------------
@dataclass(frozen=True)
class Context:
    settings: Settings
    tokens: tuple[str, ...]

    @property
    def config(self):
        return self.settings.config()


class NeedsMore(Exception):
    """The input cannot carry this station's question (the text says why)."""


def question(station: str, ctx: Context) -> quiz.Question:
    """The station's question on the numbers on the screen (cached in ui.compute.lesson)."""
    tok, cfg = ctx.tokens, ctx.config
    if station in ("positional", "mask") and len(tok) < 2:
        raise NeedsMore(t("lesson.needs_two"))
    match station:
        case "scaling":
            return compute.scaling(ctx.settings.seed)
        case "cost":
            return compute.cost(len(tok), cfg)
        case "real":
            return compute.real(ctx.settings.text)
        case "limits":
            return compute.limits(ctx.settings.text)
        case _:
            return getattr(compute, station)(tok, cfg)


def option_label(station: str, q: quiz.Question, ctx: Context) -> Callable[[str], str]:
    if q.kind == quiz.TOKEN:
        return lambda v: token_label(ctx.tokens, int(v))
    if q.kind == quiz.HEAD:
        return lambda v: t("lesson.head_option", h=v)
    if station == "cost":
        return lambda v: t(f"lesson.cost.opt.{v}", value=f"{q.facts[f'opt_{v}']:,}")
    if q.options == quiz.SHARE_BINS:
        return lambda v: t(f"lesson.share.{v}")
    return lambda v: t(f"lesson.{station}.opt.{v}")


def question_text(station: str, q: quiz.Question, ctx: Context) -> str:
    f, tok, s = q.facts, ctx.tokens, ctx.settings
    match station:
        case "why" | "qkv" | "softmax":
            return t(f"lesson.{station}.q", h=f["head"], q=quoted_at(tok, f["q"]))
        case "scaling":
            return t("lesson.scaling.q", lo=f["lo"], hi=f["hi"])
        case "positional":
            pe = t("lesson.positional.on" if s.positional else "lesson.positional.off")
            return t("lesson.positional.q", pe=pe, mask=t(f"side.mask.{s.mask}"))
        case "mask":
            return t("lesson.mask.q", a=quoted_at(tok, 0), b=quoted_at(tok, -1))
        case "transformer":
            return t("lesson.transformer.q", q=quoted_at(compute.target_tokens(), f["q"]))
        case "cost":
            return t("lesson.cost.q", d_model=f["d_model"], n_heads=f["n_heads"], d_k=f["d_k"])
        case _:
            return t(f"lesson.{station}.q")


def intro_text(station: str) -> str:
    if station == "transformer":
        return t("lesson.transformer.text", target=compute.TARGET)
    if station == "limits":
        return t("lesson.limits.text", layer=compute.MINILM_LAYER)
    return t(f"lesson.{station}.text")


# --- each station's explanation ------------------------------------------------------------
def _explain_why(q: quiz.Question, ctx: Context) -> str:
    f, tok = q.facts, ctx.tokens
    return t(
        "lesson.why.explain",
        h=f["head"],
        q=quoted_at(tok, f["q"]),
        w=num(f["w"], 2),
        top=quoted_at(tok, f["key"]),
        n=f["n"],
        u=num(f["uniform"], 2),
        ratio=num(f["ratio"], 2),
    )


def _explain_qkv(q: quiz.Question, ctx: Context) -> str:
    f, tok = q.facts, ctx.tokens
    second = ""
    if f["second"] is not None:
        second = t(
            "lesson.qkv.second",
            top=quoted_at(tok, f["second"]),
            score=num(f["second_score"], 3),
        )
    return t(
        "lesson.qkv.explain",
        h=f["head"],
        q=quoted_at(tok, f["q"]),
        top=quoted_at(tok, f["key"]),
        score=num(f["score"], 3),
        second=second,
    )


def _explain_scaling(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    return t(
        "lesson.scaling.explain",
        n=f"{compute.SPREAD_SAMPLES:,}",
        seed=ctx.settings.seed,
        lo=f["lo"],
        hi=f["hi"],
        std_lo=num(f["std_lo"], 3),
        std_hi=num(f["std_hi"], 3),
        ratio=num(f["ratio"], 3),
        sqrt_ratio=num(f["sqrt_ratio"], 3),
    )


def _explain_softmax(q: quiz.Question, ctx: Context) -> str:
    f, tok = q.facts, ctx.tokens
    return t(
        "lesson.softmax.explain",
        h=f["head"],
        q=quoted_at(tok, f["q"]),
        w=num(f["w"], 2),
        top=quoted_at(tok, f["key"]),
        total=num(f["sum"], 3),
    )


def _explain_heads(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    cost = ""
    if f.get("score_mults") is not None:
        cost = t(
            "lesson.heads.cost",
            n_heads=f["n_heads"],
            d_k=f["d_k"],
            d_model=ctx.settings.d_model,
            T=f["T"],
            mults=f"{f['score_mults']:,}",
        )
    return t(
        "lesson.heads.explain",
        head=f["head"],
        dist=num(f["dist"], 2),
        near=f["near"],
        near_dist=num(f["near_dist"], 2),
        n_heads=f["n_heads"],
        params=f"{f['params']:,}",
        d_model=ctx.settings.d_model,
        cost=cost,
    )


def _explain_positional(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    why = "permute" if q.answer == "permute" else "change"
    plain = f.get("plain_diff")
    return t(
        "lesson.positional.explain",
        diff=num(f["diff"], 2),
        why=t(f"lesson.positional.why_{why}"),
        plain="" if plain is None else t("lesson.positional.plain", plain=num(plain, 2)),
    )


def _explain_mask(q: quiz.Question, ctx: Context) -> str:
    f, tok = q.facts, ctx.tokens
    return t(
        "lesson.mask.explain",
        h=f["head"],
        a=quoted_at(tok, 0),
        b=quoted_at(tok, -1),
        w=num(f["w"], 2),
        above=num(f["above_max"], 2),
    )


def _explain_addnorm(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    bn = ""
    if f.get("bn_feature_mean") is not None:
        bn = t(
            "lesson.addnorm.bn",
            bn_feature_mean=num(f["bn_feature_mean"], 2),
            bn_token_mean=num(f["bn_token_mean"], 2),
        )
    return t(
        "lesson.addnorm.explain",
        token_mean=num(f["token_mean"], 2),
        feature_mean=num(f["feature_mean"], 2),
        bn=bn,
    )


def _explain_transformer(q: quiz.Question, ctx: Context) -> str:
    f, tok = q.facts, ctx.tokens
    tgt = compute.target_tokens()
    return t(
        "lesson.transformer.explain",
        q=quoted_at(tgt, f["q"]),
        w=num(f["w"], 2),
        top=quoted_at(tok, f["key"]),
        n_tgt=f["n_tgt"],
        n_src=f["n_src"],
    )


def _size(n_bytes: int) -> str:
    """Bytes in prose: under 1 KiB in the page's language ("784 字节"), else binary units."""
    return t("lesson.bytes", n=f"{n_bytes:,}") if n_bytes < 1024 else size(n_bytes)


def _explain_cost(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    return t(
        "lesson.cost.explain",
        n_heads=f["n_heads"],
        d_k=f["d_k"],
        bytes=f"{f['bytes']:,}",
        total=_size(f["total"]),
        T=f["T"],
        scores=_size(f["scores_bytes"]),
        mqa=f"{f['mqa_bytes']:,}",
    )


def _explain_real(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    return t(
        "lesson.real.explain",
        n=f["n_heads_total"],
        T=f["T"],
        share=num(f["share"], 2),
        over_half=f["over_half"],
    )


def induction_text(ind) -> str:
    """Station 11's second reveal: the real model's strongest induction head
    (`ui.compute.lesson.induction_head`), with its live numbers."""
    return t(
        "lesson.real.induction",
        n=ind.n,
        T=len(ind.ids),
        seed=compute.INDUCTION_SEED,
        total=ind.scores.size,
        layer=ind.layer,
        head=ind.head,
        score=num(ind.score, 2),
        chance=num(ind.chance, 2),
        offset=ind.n - 1,
    )


def _explain_limits(q: quiz.Question, ctx: Context) -> str:
    f = q.facts
    mtok = compute.minilm(ctx.settings.text)[0]
    which = "explain_same" if f["top_w"] == f["top_n"] else "explain"
    return t(
        f"lesson.limits.{which}",
        tw=quoted_at(mtok, f["top_w"]),
        w=num(f["w"], 2),
        w_norm=num(f["w_norm"], 2),
        tn=quoted_at(mtok, f["top_n"]),
        n=num(f["n"], 2),
        n_weight=num(f["n_weight"], 2),
    )


_EXPLAIN = {
    "why": _explain_why,
    "qkv": _explain_qkv,
    "scaling": _explain_scaling,
    "softmax": _explain_softmax,
    "heads": _explain_heads,
    "positional": _explain_positional,
    "mask": _explain_mask,
    "addnorm": _explain_addnorm,
    "transformer": _explain_transformer,
    "cost": _explain_cost,
    "real": _explain_real,
    "limits": _explain_limits,
}


def explain(station: str, q: quiz.Question, ctx: Context) -> str:
    """The feedback's explanation with the live numbers."""
    if station not in _EXPLAIN:
        raise KeyError(station)
    return _EXPLAIN[station](q, ctx)
