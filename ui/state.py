"""The shared settings (sidebar) as one typed object, and their mirror in the URL."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from mha_core import MAX_TOKENS, AttentionConfig, valid_head_counts
from mha_core.layer.config import MASKS, SCORINGS, head_size
from mha_core.layer.limits import D_MODELS, MAX_HEADS, MAX_SEED
from ui.strings import LANGS

TOKENIZERS = ("words", "wordpiece")
MAX_CHARS = 10_000
URL_TEXT_CHARS = 2_000  # longer sentences are not mirrored into the URL

EXAMPLES = (
    "I want to live in Europe.",
    "attention is not too shabby",
    "The animal didn't cross the street because it was too tired.",
    "the cat saw the dog and the dog saw the cat",
    "我想住在欧洲。",
)

DEFAULTS = {
    "text": EXAMPLES[0],
    "tokenizer": "words",
    "d_model": 64,
    "n_heads": 4,
    "seed": 0,
    "positional": True,
    "scale": True,
    "mask": "none",
    "scoring": "dot",
    "lang": "en",
    "present": False,  # presentation mode: projector-sized charts, explanations folded away
}


def key(name: str) -> str:
    """Session-state key of a shared setting."""
    return f"shared.{name}"


@dataclass(frozen=True)
class Settings:
    text: str
    tokenizer: str
    d_model: int
    n_heads: int
    seed: int
    positional: bool
    scale: bool
    mask: str
    scoring: str
    lang: str
    present: bool = False

    @property
    def d_k(self) -> int:
        return head_size(self.d_model, self.n_heads)

    def config(self, **overrides) -> AttentionConfig:
        fields = {
            "d_model": self.d_model,
            "n_heads": self.n_heads,
            "scale": self.scale,
            "scoring": self.scoring,
            "mask": self.mask,
            "positional": self.positional,
            "seed": self.seed,
        }
        fields.update(overrides)
        return AttentionConfig(**fields)


def nearest_heads(d_model: int, wanted: int) -> int:
    options = valid_head_counts(d_model, MAX_HEADS)
    return min(options, key=lambda h: (abs(h - wanted), h))


def current() -> Settings:
    """The settings as the sidebar holds them now (defaults where not yet set)."""
    ss = st.session_state
    values = {name: ss.get(key(name), default) for name, default in DEFAULTS.items()}
    text = values["text"] if isinstance(values["text"], str) else ""
    values["text"] = text[:MAX_CHARS]  # the box keeps all that was typed; the sidebar says so
    return Settings(**values)  # the sidebar's init_state has made (d_model, n_heads) valid


# --- URL mirror ---------------------------------------------------------------------------
def parse_bool(raw: str) -> bool:
    if raw in ("1", "true", "on"):
        return True
    if raw in ("0", "false", "off"):
        return False
    raise ValueError(raw)


def parse_int(raw: str, lo: int, hi: int) -> int:
    if not raw.isdigit() or len(raw) > 9:
        raise ValueError(raw)
    value = int(raw)
    if not lo <= value <= hi:
        raise ValueError(raw)
    return value


def parse_choice(options):
    def parse(raw: str):
        if raw not in options:
            raise ValueError(raw)
        return raw

    return parse


PARSERS = {
    "text": lambda raw: raw if len(raw) <= MAX_CHARS else raw[:MAX_CHARS],
    "tokenizer": parse_choice(TOKENIZERS),
    "d_model": lambda raw: D_MODELS[D_MODELS.index(parse_int(raw, 1, 10_000))],
    "n_heads": lambda raw: parse_int(raw, 1, MAX_HEADS),
    "seed": lambda raw: parse_int(raw, 0, MAX_SEED),
    "positional": parse_bool,
    "scale": parse_bool,
    "mask": parse_choice(MASKS),
    "scoring": parse_choice(SCORINGS),
    "lang": parse_choice(tuple(LANGS)),
    "present": parse_bool,
}


def parse_query_params(params: dict[str, str]) -> tuple[dict, list[str]]:
    """Valid settings from URL parameters, and the names of the ones that were rejected."""
    values, rejected = {}, []
    for name, parse in PARSERS.items():
        if name not in params:
            continue
        try:
            values[name] = parse(str(params[name]))
        except (ValueError, IndexError):
            rejected.append(name)
    if "n_heads" in values:
        d_model = values.get("d_model", DEFAULTS["d_model"])
        if values["n_heads"] not in valid_head_counts(d_model, MAX_HEADS):
            values.pop("n_heads")
            rejected.append("n_heads")
    return values, rejected


def to_query_params(s: Settings) -> dict[str, str]:
    params = {
        "tokenizer": s.tokenizer,
        "d_model": str(s.d_model),
        "n_heads": str(s.n_heads),
        "seed": str(s.seed),
        "positional": "1" if s.positional else "0",
        "scale": "1" if s.scale else "0",
        "mask": s.mask,
        "scoring": s.scoring,
        "lang": s.lang,
    }
    if s.present:  # only when on: every other link stays as it was
        params["present"] = "1"
    if len(s.text) <= URL_TEXT_CHARS:
        params = {"text": s.text, **params}
    return params


__all__ = ["DEFAULTS", "D_MODELS", "EXAMPLES", "MAX_TOKENS", "Settings", "current", "key"]
