"""Reading trained heads the way research does, on the pretrained model (all-MiniLM-L6-v2
through our core). Raw attention weights mislead in known ways; each module answers one:

- `rollout`: attention rollout across layers (Abnar & Zuidema 2020);
- `value_norms`: value-weighted norms (Kobayashi et al. 2020);
- `ablation`: how far the sentence embedding moves with a head zeroed;
- `corpus`: where the heads look on average over a built-in corpus, beside `published`
  (Clark et al. 2019 on BERT-base);
- `filters`, `query_key`: the heatmap filter and the query/key map (AttentionViz).

Every function takes the model (and a trace or a text); the model knows none of them.
"""

from .ablation import ablate_heads, head_ablation, sentence_embedding
from .corpus import (
    CATEGORIES,
    MEASURES,
    CorpusStatistics,
    HeadShare,
    attention_shares,
    corpus_statistics,
    is_punctuation,
    layer_shares,
    load_corpus,
    sentence_shares,
)
from .filters import FILTERS, FilteredAttention, filter_attention
from .published import CLARK_2019, CLARK_2019_CITATION, CLARK_2019_SETUP, PublishedFinding
from .query_key import QueryKeyMap, query_key_map
from .rollout import rollout, row_shares
from .value_norms import transformed_value_norms, value_norms

__all__ = [
    "CATEGORIES",
    "CLARK_2019",
    "CLARK_2019_CITATION",
    "CLARK_2019_SETUP",
    "FILTERS",
    "MEASURES",
    "CorpusStatistics",
    "FilteredAttention",
    "HeadShare",
    "PublishedFinding",
    "QueryKeyMap",
    "ablate_heads",
    "attention_shares",
    "corpus_statistics",
    "filter_attention",
    "head_ablation",
    "is_punctuation",
    "layer_shares",
    "load_corpus",
    "query_key_map",
    "rollout",
    "row_shares",
    "sentence_embedding",
    "sentence_shares",
    "transformed_value_norms",
    "value_norms",
]
