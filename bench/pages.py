"""The app's pages as the benches name them: short name -> (view file, URL path).

One table for bench/profile_pages.py (AppTest switches to the file), bench/ui_latency.py and
bench/load.py (browsers and websocket clients open the path); update it when a page moves.
"""

PAGES = {
    "attention": ("views/attention.py", ""),
    "step": ("views/step.py", "step"),
    "scaling": ("views/scaling.py", "scaling"),
    "positional": ("views/positional.py", "positional"),
    "pretrained": ("views/pretrained.py", "pretrained"),
    "encoder_decoder": ("views/encoder_decoder.py", "encoder_decoder"),
    "reading": ("views/reading.py", "reading"),
    "efficient": ("views/efficient.py", "efficient"),
    "train": ("views/train.py", "train"),
    "induction": ("views/induction.py", "induction"),
}
