"""`streamlit` with every script run timed on the server: python bench/timed_streamlit.py run app.py

Each finished script run appends "<unix time> <seconds>" to the file named by the environment
variable SCRIPT_RUN_LOG, so that bench/ui_latency.py can say how much of a slider step the
server's script run took, without touching the app.
"""

import os
import sys
import time

from streamlit.runtime.scriptrunner import script_runner
from streamlit.web import cli

LOG = os.environ["SCRIPT_RUN_LOG"]
_run_script = script_runner.ScriptRunner._run_script


def _timed_run_script(self, rerun_data):
    t0 = time.perf_counter()
    try:
        return _run_script(self, rerun_data)
    finally:
        with open(LOG, "a") as fh:
            fh.write(f"{time.time():.6f} {time.perf_counter() - t0:.6f}\n")


script_runner.ScriptRunner._run_script = _timed_run_script

if __name__ == "__main__":
    sys.exit(cli.main())
