"""The model's tokenizer, built from the GGUF file's vocabulary and merges with `tokenizers`.

A GGUF file holds no tokenizer.json: `tokenizer.ggml.tokens` (the vocabulary, in GPT-2's byte
alphabet), `tokenizer.ggml.merges` ("a b" pairs, best first), the token types (3 = control, such
as <|im_start|>) and the special ids. Built the way Hugging Face builds it from the same file
(`transformers/integrations/gguf/gguf_tokenizer_mapping.py`): byte-level BPE, GPT-2's
pre-tokenizer (its regex, no prefix space) unless the file names a pre-tokenizer with its own
split (the LLaMA-3 family), control tokens kept whole as special tokens.

`chat_text` renders the file's own chat template (`tokenizer.chat_template`, Jinja) the way
`apply_chat_template` does: in a sandbox, trim_blocks and lstrip_blocks on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers

CONTROL, USER_DEFINED = 3, 4  # llama.cpp's token types

# pre-tokenizers (tokenizer.ggml.pre) whose split is not GPT-2's: Hugging Face's table
_LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
PRE_TOKENIZER_SPLITS = {
    name: _LLAMA3_SPLIT
    for name in ("llama3", "llama-v3", "llama-bpe", "falcon3", "smaug-bpe", "dbrx", "pixtral")
}


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte alphabet: each byte 0..255 as a printable character (spaces become Ġ)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    bs += list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs), strict=True))


def build_tokenizer(meta: dict) -> Tokenizer:
    """A byte-level BPE `tokenizers.Tokenizer` from a GGUF file's tokenizer metadata."""
    kind = meta.get("tokenizer.ggml.model")
    if kind != "gpt2":
        raise ValueError(
            f"the GGUF file's tokenizer is {kind!r}; only byte-level BPE ('gpt2') is supported"
        )
    tokens = list(meta["tokenizer.ggml.tokens"])
    types = list(meta.get("tokenizer.ggml.token_type") or [1] * len(tokens))
    spelling = bytes_to_unicode()
    alphabet = set(spelling.values())
    vocab = {  # a token outside the byte alphabet is spelled in it (as Hugging Face does)
        t if set(t) <= alphabet else "".join(spelling[b] for b in t.encode("utf-8")): i
        for i, t in enumerate(tokens)
    }
    merges = [tuple(m.split(" ")) for m in meta.get("tokenizer.ggml.merges") or []]
    tok = Tokenizer(models.BPE(vocab, merges, fuse_unk=False, byte_fallback=False))
    split = PRE_TOKENIZER_SPLITS.get(meta.get("tokenizer.ggml.pre"))
    if split is None:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    else:
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(split), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ])
    tok.decoder = decoders.ByteLevel()
    control = [AddedToken(t, normalized=False, special=True)
               for t, k in zip(tokens, types, strict=True)
               if k == CONTROL and set(t) <= alphabet]
    tok.add_special_tokens(control)
    user = [AddedToken(t, normalized=False, special=False)
            for t, k in zip(tokens, types, strict=True) if k == USER_DEFINED and t in vocab]
    tok.add_tokens(user)
    return tok


@dataclass(frozen=True, eq=False)
class LlmTokenizer:
    """Text <-> token ids for the chat model, and its chat template."""

    tokenizer: Tokenizer
    bos_id: int | None
    eos_id: int | None
    chat_template: str | None
    special_tokens: dict[str, str]  # bos_token, eos_token, unk_token, pad_token -> the token

    @classmethod
    def from_metadata(cls, meta: dict, tokenizer: Tokenizer | None = None) -> LlmTokenizer:
        tok = build_tokenizer(meta) if tokenizer is None else tokenizer
        tokens = meta["tokenizer.ggml.tokens"]
        special = {}
        for name, key in (("bos_token", "bos_token_id"), ("eos_token", "eos_token_id"),
                          ("unk_token", "unknown_token_id"), ("pad_token", "padding_token_id")):
            i = meta.get(f"tokenizer.ggml.{key}")
            if i is not None and 0 <= int(i) < len(tokens):
                special[name] = tokens[int(i)]
        bos, eos = meta.get("tokenizer.ggml.bos_token_id"), meta.get("tokenizer.ggml.eos_token_id")
        return cls(
            tokenizer=tok,
            bos_id=None if bos is None else int(bos),
            eos_id=None if eos is None else int(eos),
            chat_template=meta.get("tokenizer.chat_template"),
            special_tokens=special,
        )

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.get_vocab_size(with_added_tokens=True)

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`; special tokens written in the text (<|im_end|>) stay whole."""
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def decode(self, ids, skip_special_tokens: bool = True) -> str:
        return self.tokenizer.decode(list(map(int, ids)), skip_special_tokens=skip_special_tokens)

    def token_texts(self, ids) -> list[str]:
        """Each token's own text, for labels ('Ġthe' -> ' the'); a token that holds part of a
        character's UTF-8 bytes shows as U+FFFD."""
        return [self.tokenizer.decode([int(i)], skip_special_tokens=False) for i in ids]

    @cached_property
    def _template(self):
        if not self.chat_template:
            raise ValueError("this model's file has no chat template (tokenizer.chat_template)")
        from jinja2.ext import loopcontrols
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        def raise_exception(message):
            from jinja2.exceptions import TemplateError

            raise TemplateError(message)

        env = ImmutableSandboxedEnvironment(
            trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
        )
        env.filters["tojson"] = lambda x, **kw: json.dumps(x, ensure_ascii=False, **kw)
        env.globals["raise_exception"] = raise_exception
        return env.from_string(self.chat_template)

    def chat_text(self, messages: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
        """The chat template rendered for `messages` ({"role", "content"} dicts)."""
        return self._template.render(
            messages=messages, add_generation_prompt=add_generation_prompt, **self.special_tokens
        )
