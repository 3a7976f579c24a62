"""A figure's `layout.datarevision`: a digest of everything in it, so that an unchanged chart
is not drawn again.

Streamlit sends every chart again on every rerun, and the browser parses it into new arrays.
Without `datarevision`, `Plotly.react` counts a new array as new data and draws the chart
from scratch: a heads-slider step on the positional page redrew all nine charts although
seven of them had not changed. With `datarevision` set, plotly.js does not compare data arrays
(z, customdata, tick text, ...) and trusts the revision instead: an unchanged revision and an
unchanged layout leave the chart as it is. So the digest covers every value of the figure,
arrays included, and any change to any value gives a new revision.
"""

from __future__ import annotations

import hashlib

import numpy as np


def _feed(h, obj) -> None:
    if isinstance(obj, np.ndarray):
        h.update(f"a{obj.dtype.str}{obj.shape}".encode())
        if obj.dtype == object:  # its bytes are the addresses of its objects: hash the values
            h.update("\x1f".join(map(repr, obj.ravel().tolist())).encode())
        else:
            h.update(np.ascontiguousarray(obj).tobytes())
    elif isinstance(obj, dict):
        h.update(b"{%d" % len(obj))
        for k in sorted(obj):
            h.update(str(k).encode() + b":")
            _feed(h, obj[k])
    elif isinstance(obj, (list, tuple)):
        h.update(b"[%d" % len(obj))
        for v in obj:
            _feed(h, v)
    else:
        h.update(f"{type(obj).__name__}={obj!r};".encode())


def revision(data: list[dict], layout: dict) -> str:
    """A digest of the traces and the layout (any `datarevision` already there left out)."""
    h = hashlib.blake2b(digest_size=12)
    _feed(h, data)
    _feed(h, {k: v for k, v in layout.items() if k != "datarevision"})
    return h.hexdigest()


def stamp(fig):
    """Set `fig.layout.datarevision` to the digest of the finished figure; returns it.

    The digest reads the figure's own dicts (plotly's `_data`, `_layout`): `to_plotly_json()`
    deep-copies them and rewrites every array as base64 first, slow at 512 tokens."""
    fig.layout.datarevision = revision(fig._data, fig._layout)
    return fig
