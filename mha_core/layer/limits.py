"""The limits of what the app computes, defined once: the core checks against them and the pages
import them for their widgets and URL parsing."""

MAX_TOKENS = 512  # tokens of one sentence (word and WordPiece tokenizers), as MiniLM's
# the model widths the sidebar offers
D_MODELS = (4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)
MAX_HEADS = 16  # most heads the sidebar offers (`valid_head_counts(d_model, MAX_HEADS)`)
TRAIN_MAX_HEADS = 8  # most heads the Train page offers (its models train live, in seconds)
MAX_SEED = 1_000_000  # the largest seed a page accepts
