"""Reading trained heads the way research does: rollout, value-weighted norms, head ablation and
corpus statistics, on the pretrained model (all-MiniLM-L6-v2 through our core).

Raw attention weights mislead in known ways, and each function here answers one of them:

- `rollout` (Abnar & Zuidema 2020, "Quantifying Attention Flow in Transformers"): one layer's
  weights do not say where information came from across layers; rollout multiplies the layers'
  head-averaged weights (with the residual connection counted as half an identity).
- `value_norms` (Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing Transformers
  with Vector Norms"): a large weight on a token whose transformed value vector is tiny moves
  almost nothing; `|| alpha_ij f_h(x_j) ||` measures what each key actually contributes.
- `head_ablation`: how much the sentence embedding moves when one head's output is zeroed.
- `corpus_statistics`: where the heads look on average over a built-in set of sentences
  (`load_corpus`), under weights and under value norms, beside Clark et al. (2019)'s findings for
  BERT-base (`CLARK_2019`).

Shapes: L layers, nh heads, T tokens, C = d_model, hs = C / nh, B a batch of ablated copies.
Everything is computed on request and returned; nothing is stored on the model or the trace.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import torch
import torch.nn.functional as F

if TYPE_CHECKING:  # pretrained.py imports this module lazily (its hooks); no cycle at run time
    from .pretrained import PretrainedModel, PretrainedTrace
    from .pretrained.model import BertLayer

CORPUS_PATH = Path(__file__).resolve().parent / "data" / "corpus_en.txt"

# --- rollout ---------------------------------------------------------------------------------


def rollout(attentions, *, residual: bool = True):
    """Attention rollout (Abnar & Zuidema 2020) after every layer.

    `attentions` (L, nh, T, T), a tensor or a NumPy array of row-stochastic weights (rows are
    queries, columns keys). Returns (L, T, T) of the same kind (tensor in, tensor out; array in,
    array out) and the same floating dtype (float64 for integer input). Entry l is the rollout
    through layers 0..l:

        A_l = mean over heads of attentions[l]                  # (T, T)
        A_l = rownorm(0.5 * A_l + 0.5 * I)                       # with `residual` (the default)
        R_0 = A_0;  R_l = A_l @ R_{l-1}                          # later layers on the LEFT

    so R_l[i, j] is how much of token i's representation after layer l traces back to input
    token j. Every row sums to 1 when the input rows do (a row of zeros, a query with no allowed
    key, becomes the identity row with `residual`, and stays zero without it).
    """
    numpy_in = not isinstance(attentions, torch.Tensor)
    a = torch.from_numpy(np.asarray(attentions)) if numpy_in else attentions
    if a.dim() != 4 or a.shape[-1] != a.shape[-2] or a.shape[0] < 1 or a.shape[1] < 1:
        raise ValueError(
            "attentions must be shaped (layers, heads, T, T) with at least one layer and head, "
            f"got {tuple(a.shape)}"
        )
    if not a.is_floating_point():
        a = a.to(torch.float64)
    L, _, T, _ = a.shape
    A = a.mean(dim=1)  # (L, T, T) heads averaged
    if residual:
        A = 0.5 * A + 0.5 * torch.eye(T, dtype=A.dtype, device=A.device)  # (L, T, T)
        A = A / A.sum(dim=-1, keepdim=True)  # rows renormalised
    R = torch.empty_like(A)  # (L, T, T)
    R[0] = A[0]
    for i in range(1, L):
        R[i] = A[i] @ R[i - 1]  # (T, T): layer i applied after layers 0..i-1
    return R.numpy() if numpy_in else R


# --- value-weighted norms ----------------------------------------------------------------------


def _check_trace(model: PretrainedModel, trace: PretrainedTrace) -> None:
    L, C = model.n_layers, model.d_model
    hs = trace.hidden_states
    if hs.dim() != 3 or hs.shape[0] != L + 1 or hs.shape[2] != C:
        raise ValueError(
            f"this trace does not come from this model: hidden states {tuple(hs.shape)}, "
            f"expected ({L + 1}, T, {C})"
        )


def _as_trace(model: PretrainedModel, trace_or_text) -> PretrainedTrace:
    if isinstance(trace_or_text, str):
        return model.trace(trace_or_text, keep_layers=False)
    _check_trace(model, trace_or_text)
    return trace_or_text


def transformed_value_norms(model: PretrainedModel, trace_or_text) -> torch.Tensor:
    """(L, nh, T) `|| f_h(x_j) ||` with `f_h(x) = (x W_V^h + b_V^h) W_O^h`: the size of what key
    j would add to the layer's output through head h per unit of attention (Kobayashi et al.
    2020). x is the layer's input hidden state; W_O^h is the block of rows of the output
    projection (in the x @ W convention) that head h's output meets; the output bias b_O is not
    part of f (it is added once, whatever the weights). A string is traced first.

    Costs about one output projection per layer (O(L nh T hs C)), no T x T work.
    """
    trace = _as_trace(model, trace_or_text)
    L, nh, C = model.n_layers, model.n_heads, model.d_model
    hs, T = C // nh, trace.hidden_states.shape[1]
    out = torch.empty(L, nh, T, dtype=trace.hidden_states.dtype)  # (L, nh, T)
    with torch.inference_mode():
        for i, layer in enumerate(model.layers):
            mha = layer.attention
            x = trace.hidden_states[i]  # (T, C) the layer's input
            _, _, W_V = mha.projection_weights()  # (C, C), x @ W_V
            _, _, b_V = mha.projection_biases()  # (C,)
            v = (x @ W_V + b_V).view(T, nh, hs).transpose(0, 1)  # (nh, T, hs)
            W_O = mha.out_proj.weight.T.reshape(nh, hs, C)  # (nh, hs, C) head h's rows of W_O
            f = v @ W_O  # (nh, T, C) f_h(x_j)
            out[i] = torch.linalg.vector_norm(f, dim=-1)  # (nh, T)
    return out


def value_norms(model: PretrainedModel, trace_or_text) -> torch.Tensor:
    """(L, nh, T, T) value-weighted norms `|| alpha_ij f_h(x_j) ||` (Kobayashi et al. 2020):
    attention weight times the size of the transformed value vector it weighs.

    Since alpha_ij >= 0, `|| alpha_ij f_h(x_j) || = alpha_ij || f_h(x_j) ||`: the T x T x C
    definition costs one (L, nh, T) norm and one broadcast product here. A string is traced
    first. Rows do not sum to 1; divide by the row sum for shares (`row_shares`).
    """
    trace = _as_trace(model, trace_or_text)
    norms = transformed_value_norms(model, trace)  # (L, nh, T) one per key
    return trace.attentions * norms[:, :, None, :]  # (L, nh, T, T)


def row_shares(matrix):
    """Rows divided by their sums (rows summing to 0 stay 0): norms -> shares of each query's
    total. Tensor or array in, the same kind out."""
    total = matrix.sum(-1, keepdims=True) if isinstance(matrix, np.ndarray) else None
    if total is None:
        total = matrix.sum(dim=-1, keepdim=True)
        return torch.where(total > 0, matrix / total.clamp_min(torch.finfo(matrix.dtype).tiny), 0)
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, matrix / safe, 0.0)


# --- head ablation -----------------------------------------------------------------------------


def sentence_embedding(hidden: torch.Tensor) -> torch.Tensor:
    """(..., T, C) last hidden states -> (..., C): how all-MiniLM-L6-v2 is used as a sentence
    encoder (sentence-transformers' Transformer -> mean Pooling -> Normalize). One unpadded
    sequence: the attention mask is all ones, so every token (incl. [CLS] and [SEP]) counts."""
    return F.normalize(hidden.mean(dim=-2), p=2.0, dim=-1)  # (..., C)


def _layer_forward(layer: BertLayer, x: torch.Tensor, keep: torch.Tensor | None) -> torch.Tensor:
    """One BERT layer on a batch, head h's output scaled by keep[b, h].

    x (B|1, T, C), keep (B, nh) or None -> (B, T, C). The same arithmetic as `BertLayer.forward`
    (our `MultiHeadAttention` there, `F.scaled_dot_product_attention` here: the fused softmax(Q K^T
    / sqrt(hs)) V, with no T x T buffer kept for the batch). When x has one row and keep B rows,
    Q, K, V and the heads are computed once and shared.
    """
    mha = layer.attention
    B1, T, C = x.shape
    nh, hs = mha.n_heads, mha.d_k
    qkv = F.linear(x, mha.in_proj_weight, mha.in_proj_bias)  # (B1, T, 3C)
    q, k, v = qkv.view(B1, T, 3, nh, hs).permute(2, 0, 3, 1, 4).unbind(0)  # (B1, nh, T, hs)
    y = F.scaled_dot_product_attention(q, k, v)  # (B1, nh, T, hs)
    if keep is not None:
        y = y * keep[:, :, None, None].to(y.dtype)  # (B, nh, T, hs) head h scaled by keep[:, h]
    B = y.shape[0]
    concat = y.transpose(1, 2).reshape(B, T, C)  # (B, T, C)
    x = layer.attention_norm(x + mha.out_proj(concat))  # (B, T, C) Add & Norm
    h = F.gelu(layer.intermediate(x))  # (B, T, 4C) exact erf GELU
    return layer.output_norm(x + layer.output(h))  # (B, T, C)


def _run_layers(
    model: PretrainedModel, x: torch.Tensor, start: int, keep: torch.Tensor
) -> torch.Tensor:
    """x (T, C), the input of layer `start`; keep (B, L, nh) -> last hidden states (B, T, C).

    Layer `start` runs its attention once for the whole batch (every copy has the same input
    there); each later layer runs the B copies as one batch."""
    h = x[None]  # (1, T, C)
    for i in range(start, model.n_layers):
        k = keep[:, i]  # (B, nh)
        h = _layer_forward(model.layers[i], h, None if bool((k == 1).all()) and i > start else k)
    return h  # (B, T, C)


def _distance(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
    """1 - cos(a, b) of vectors (..., C), in float64, as ||a/|a| - b/|b| ||^2 / 2: the same
    number without the cancellation of 1 - cos near 0, and exactly 0.0 when a equals b."""
    a = F.normalize(a.double(), dim=-1)  # (..., C)
    b = F.normalize(b.double(), dim=-1)  # (..., C)
    d = a - b  # (..., C)
    return (0.5 * (d * d).sum(dim=-1)).numpy()


def ablate_heads(model: PretrainedModel, trace_or_text, keep) -> np.ndarray:
    """(B,) 1 - cosine similarity between the sentence embedding with heads scaled by `keep`
    (B, L, nh), 0 = head zeroed, 1 = untouched, and the embedding with no head touched.

    The copies run as one batch from the first layer that any of them changes, on the trace's
    hidden states before it (the layers before run once, in the trace). The untouched
    embedding runs in the same batch through the same operations, so a row of ones gives
    exactly 0.0. A string is traced first.
    """
    trace = _as_trace(model, trace_or_text)
    L, nh = model.n_layers, model.n_heads
    keep = torch.as_tensor(keep, dtype=trace.hidden_states.dtype)
    if keep.dim() != 3 or keep.shape[1:] != (L, nh) or keep.shape[0] < 1:
        raise ValueError(
            f"keep must be shaped (copies, {L}, {nh}): one factor per layer and head "
            f"(0 = head zeroed, 1 = untouched) for each copy, got {tuple(keep.shape)}"
        )
    if not bool(torch.isfinite(keep).all()):
        raise ValueError("keep must hold finite numbers (0 = head zeroed, 1 = untouched)")
    changed = (keep != 1).any(dim=0).any(dim=-1)  # (L,) layers that any copy changes
    if not bool(changed.any()):
        return np.zeros(keep.shape[0])  # nothing changed: the embedding is the trace's own
    start = int(changed.nonzero()[0])
    untouched = torch.ones(1, L, nh, dtype=keep.dtype)  # (1, L, nh)
    batch = torch.cat([untouched, keep])  # (1+B, L, nh), row 0 untouched
    with torch.inference_mode():
        last = _run_layers(model, trace.hidden_states[start], start, batch)  # (1+B, T, C)
        pooled = last.mean(dim=-2)  # (1+B, C) mean pooling; normalised in _distance
    return _distance(pooled[1:], pooled[:1])  # (B,)


def head_ablation(
    model: PretrainedModel, trace_or_text, text_pair: str | None = None
) -> np.ndarray:
    """(L, nh) importance of each head for this input: 1 - cosine similarity between the
    sentence embedding (mean pooling + L2 normalisation, as all-MiniLM-L6-v2 is used) with that
    head's output zeroed and without. 0 = the embedding does not move; 2 = it points the other way.

    One batched pass per layer: layers before l run once (the trace's hidden states), then the
    nh copies, copy h with head h zeroed, and an untouched copy run through layers l..L-1 as one
    batch (6 batches of 13 instead of 72 forwards). A string (with an optional `text_pair`) is
    traced first.
    """
    if isinstance(trace_or_text, str):
        trace_or_text = model.trace(trace_or_text, text_pair, keep_layers=False)
    elif text_pair is not None:
        raise ValueError("text_pair goes with a text; a trace already has its pair")
    trace = _as_trace(model, trace_or_text)
    L, nh = model.n_layers, model.n_heads
    out = np.empty((L, nh))
    for i in range(L):
        keep = torch.ones(nh, L, nh)  # (nh, L, nh) copy h ...
        keep[:, i] = 1.0 - torch.eye(nh)  # ... with head h of layer i zeroed
        out[i] = ablate_heads(model, trace, keep)  # (nh,)
    return out


# --- token categories and shares -------------------------------------------------------------

CATEGORIES: tuple[str, ...] = ("cls", "sep", "punct", "prev", "next", "self")
MEASURES: tuple[str, ...] = ("weights", "norms")


def is_punctuation(token: str) -> bool:
    """A WordPiece token made only of punctuation characters (Unicode category P*: . , ; : ! ?
    quotes, brackets, dashes, ...); [CLS]/[SEP]/[UNK] are not punctuation."""
    piece = token.removeprefix("##")
    if not piece or (token.startswith("[") and token.endswith("]") and len(token) > 2):
        return False
    return all(unicodedata.category(ch).startswith("P") for ch in piece)


def attention_shares(matrix, tokens: Sequence[str]) -> np.ndarray:
    """(n_categories, L, nh) where each head looks, averaged over query rows, for one input.

    `matrix` (L, nh, T, T) row-stochastic: attention weights, or value norms divided by their
    row sums (`row_shares`). Categories (`CATEGORIES`), for query row i:
    - cls, sep, punct: the share of row i on keys that are [CLS], [SEP], punctuation
      (`is_punctuation`); these three never overlap, so they sum to at most 1;
    - prev, next, self: the weight on key i-1 (rows i >= 1), i+1 (rows i <= T-2), i.
      They overlap with the first three (the token before the first word is [CLS]).
    Each is the mean over the query rows it is defined for, in float64.
    """
    m = matrix.detach().cpu().numpy() if isinstance(matrix, torch.Tensor) else np.asarray(matrix)
    if m.ndim != 4 or m.shape[-1] != m.shape[-2] or m.shape[-1] != len(tokens):
        raise ValueError(
            f"matrix must be (layers, heads, T, T) with T = {len(tokens)} tokens, got {m.shape}"
        )
    L, nh, T, _ = m.shape
    toks = np.asarray(tokens, dtype=object)
    key_sets = (toks == "[CLS]", toks == "[SEP]", np.array([is_punctuation(t) for t in toks]))
    out = np.full((len(CATEGORIES), L, nh), np.nan)  # (n_categories, L, nh)
    for i in range(L):  # a layer at a time: float64 copies of (nh, T, T), not of the whole stack
        w = m[i].astype(np.float64)  # (nh, T, T)
        for c, keys in enumerate(key_sets):
            out[c, i] = w[..., keys].sum(axis=-1).mean(axis=-1)  # (nh,)
        for c, offset in enumerate((-1, 1, 0), start=len(key_sets)):  # prev, next, self
            if abs(offset) < T:
                out[c, i] = np.diagonal(w, offset=offset, axis1=-2, axis2=-1).mean(axis=-1)
    return out


class HeadShare(NamedTuple):
    layer: int  # 0-based
    head: int  # 0-based
    share: float


@dataclass(frozen=True, eq=False)
class CorpusStatistics:
    """Where MiniLM's heads look, averaged over a corpus.

    `weights[c, l, h]`: the share of head h of layer l's attention on category
    `categories[c]`, averaged over each sentence's query rows, then over sentences (every
    sentence counts alike). `norms`: the same with value-weighted norms in place of weights
    (each row's norms divided by the row's sum).
    """

    categories: tuple[str, ...]
    weights: np.ndarray  # (n_categories, L, nh)
    norms: np.ndarray  # (n_categories, L, nh)
    n_sentences: int
    n_tokens: int  # WordPiece tokens in all, [CLS] and [SEP] included

    def _array(self, measure: str) -> np.ndarray:
        if measure not in MEASURES:
            raise ValueError(f"measure must be one of {MEASURES}, got {measure!r}")
        return self.weights if measure == "weights" else self.norms

    def _index(self, category: str) -> int:
        if category not in self.categories:
            raise ValueError(f"category must be one of {self.categories}, got {category!r}")
        return self.categories.index(category)

    @property
    def n_layers(self) -> int:
        return self.weights.shape[1]

    @property
    def n_heads(self) -> int:
        return self.weights.shape[2]

    def share(self, category: str, measure: str = "weights") -> np.ndarray:
        """(L, nh) every head's average share on `category`."""
        return self._array(measure)[self._index(category)]

    def layer_share(self, category: str, measure: str = "weights") -> np.ndarray:
        """(L,) the layer's average share on `category` (the mean over its heads)."""
        return self.share(category, measure).mean(axis=-1)

    def heads_above(
        self, category: str, threshold: float = 0.5, measure: str = "weights"
    ) -> tuple[HeadShare, ...]:
        """The heads whose average share on `category` exceeds `threshold`, largest first."""
        s = self.share(category, measure)
        rows, cols = np.nonzero(s > threshold)
        hits = [HeadShare(int(i), int(h), float(s[i, h])) for i, h in zip(rows, cols)]
        return tuple(sorted(hits, key=lambda hs: -hs.share))


def load_corpus(path: str | Path | None = None) -> tuple[str, ...]:
    """The built-in English sentences (one per line, UTF-8, written for this project)."""
    p = CORPUS_PATH if path is None else Path(path)
    lines = p.read_text(encoding="utf-8").splitlines()
    return tuple(s for line in lines if (s := line.strip()))


def corpus_statistics(
    model: PretrainedModel,
    sentences: Sequence[str],
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> CorpusStatistics:
    """Average `attention_shares` over `sentences`, under weights and under value norms.

    `on_progress(done, total)` is called after each sentence (for a progress bar).
    """
    if isinstance(sentences, str) or not sentences:
        raise ValueError("sentences must be a non-empty list of strings")
    if not all(isinstance(s, str) for s in sentences):
        raise ValueError("every sentence must be a string")
    total = len(sentences)
    sum_w = sum_n = None
    n_tokens = 0
    for done, text in enumerate(sentences, start=1):
        trace = model.trace(text, keep_layers=False)
        w = attention_shares(trace.attentions, trace.tokens)  # (n_categories, L, nh)
        n = attention_shares(row_shares(value_norms(model, trace)), trace.tokens)
        sum_w = w if sum_w is None else sum_w + w
        sum_n = n if sum_n is None else sum_n + n
        n_tokens += trace.n_tokens
        if on_progress is not None:
            on_progress(done, total)
    return CorpusStatistics(
        categories=CATEGORIES,
        weights=sum_w / total,
        norms=sum_n / total,
        n_sentences=total,
        n_tokens=n_tokens,
    )


# --- published reference: Clark et al. (2019) on BERT-base -------------------------------------

CLARK_2019_CITATION = (
    "Kevin Clark, Urvashi Khandelwal, Omer Levy and Christopher D. Manning. 2019. "
    "What Does BERT Look At? An Analysis of BERT's Attention. In Proceedings of the 2019 ACL "
    "Workshop BlackboxNLP: Analyzing and Interpreting Neural Networks for NLP, pages 276-286, "
    "Florence, Italy. https://aclanthology.org/W19-4828"
)
CLARK_2019_SETUP = (
    "BERT-base (12 layers x 12 heads), attention maps over 1000 random Wikipedia segments of at "
    "most 128 tokens, each [CLS] paragraph [SEP] paragraph [SEP]; layers are counted from 1."
)


@dataclass(frozen=True)
class PublishedFinding:
    """One statement of the paper about BERT-base, with what it is about, for display."""

    category: str  # one of CATEGORIES
    statement: str  # the finding, in the paper's words where quoted
    layers: tuple[int, ...]  # BERT-base layers it names, counted from 1 (as in the paper)
    threshold: float | None  # the share it speaks of ("over half" -> 0.5), if any
    where: str  # section or figure of the paper


# Only what the paper's text states (Sections 3.1, 3.2 and the caption of Figure 2); the
# per-layer values are in the paper's figures only and are deliberately not copied here.
CLARK_2019: tuple[PublishedFinding, ...] = (
    PublishedFinding(
        "sep",
        "Over half of BERT's attention in layers 6-10 focuses on [SEP].",
        (6, 7, 8, 9, 10),
        0.5,
        "Section 3.2",
    ),
    PublishedFinding(
        "prev",
        "Four attention heads (in layers 2, 4, 7, and 8) on average put >50% of their attention "
        "on the previous token.",
        (2, 4, 7, 8),
        0.5,
        "Section 3.1",
    ),
    PublishedFinding(
        "next",
        "Five attention heads (in layers 1, 2, 2, 3, and 6) put >50% of their attention on the "
        "next token.",
        (1, 2, 2, 3, 6),
        0.5,
        "Section 3.1",
    ),
    PublishedFinding(
        "self",
        "Most heads put little attention on the current token.",
        (),
        None,
        "Section 3.1",
    ),
    PublishedFinding(
        "cls",
        "Early heads attend to [CLS], middle heads attend to [SEP], and deep heads attend to "
        "periods and commas.",
        (),
        None,
        "Figure 2",
    ),
    PublishedFinding(
        "sep",
        "Heads processing [SEP] attend almost entirely (more than 90%) to themselves and the "
        "other [SEP] token.",
        (),
        0.9,
        "Section 3.2",
    ),
)
