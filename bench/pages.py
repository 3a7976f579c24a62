"""The app's pages as the benches name them: short name -> (view file, URL path).

One table for bench/profile_pages.py (AppTest switches to the file), bench/ui_latency.py and
bench/load.py (browsers and websocket clients open the path); update it when a page moves.
"""

PAGES = {
    "home": ("views/attention.py", ""),
    "step_by_step": ("views/step_by_step.py", "step_by_step"),
    "scaling": ("views/scaling.py", "scaling"),
    "positional_encoding": ("views/positional_encoding.py", "positional_encoding"),
    "pretrained": ("views/pretrained.py", "pretrained"),
}
