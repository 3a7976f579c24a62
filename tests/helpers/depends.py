"""Which settings may change when another one changes, shared by the sequence tests
(tests/helpers/sequences.py, over AppTest) and the browser walk (tests/browser/walk.py)."""

from __future__ import annotations

TOKENS = frozenset({"text", "tokenizer"})  # a change here changes the tokens
HEADS = frozenset({"d_model", "n_heads"})  # ... and here the number of heads or d_k

# URL parameters whose value may be clamped when another one changes: {page: {param: causes}}.
# "*" holds for every page. A parameter not listed here may change only by an action on its own
# control (or a button in `BUTTONS` that sets it); anything else is a lost setting. Every page
# has its row, empty when nothing of it depends on another setting (tests/test_registry.py).
DEPENDS: dict[str, dict[str, frozenset]] = {
    "*": {"n_heads": frozenset({"d_model"})},
    # the pick starts again at the first option (or the answer given) on a new station or new
    # numbers: every model setting makes new numbers
    "lesson": {
        "pick": TOKENS
        | HEADS
        | {"seed", "positional", "scale", "mask", "scoring", "station", "answers"}
    },
    # the long-text head follows the heads shown: the sidebar's, or MiniLM's re-headed count
    "attention": {"head": HEADS | {"weights", "minilm_heads"}},
    "step": {
        "query": TOKENS,
        "head": HEADS,
        "dims": HEADS | {"head"},  # the d_model window follows the chosen head
        "dk_dims": HEADS | {"head"},
    },
    "scaling": {"head": HEADS, "tau": HEADS | {"tau_sqrt"}},
    "pretrained": {},  # MiniLM's layers and heads are fixed
    "positional": {"dims": frozenset({"pe_d_model"}), "anchor": frozenset({"n_positions"}),
                   "head": HEADS, "rope_pair": HEADS},  # fmt: skip
    "efficient": {"kv_heads": HEADS, "head": HEADS, "step": TOKENS, "global": TOKENS,
                  "row": TOKENS, "tile": TOKENS | {"block", "row"}, "window": TOKENS,
                  "sinks": TOKENS},  # fmt: skip
    "encoder_decoder": {"layer": frozenset({"layers"}), "head": HEADS,
                        "cut": TOKENS | {"target"}},  # fmt: skip
    "reading": {"lines_token": TOKENS, "qk_query": TOKENS},
    "train": {"heads": frozenset({"dim"})},
    "induction": {"snapshot": frozenset({"steps", "run_seed"})},
    # the query index follows the text's tokens: the question or the sidebar's sentence (and
    # the answer, once generated)
    "llm": {"query": TOKENS | {"question", "temperature", "top_k", "max_new", "source"}},
}
