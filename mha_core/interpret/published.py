"""Published reference: Clark et al. (2019)'s findings on BERT-base, beside which the corpus
statistics are shown."""

from __future__ import annotations

from dataclasses import dataclass

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
