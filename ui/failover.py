"""Behind deploy/serve.sh: when a replica dies, reload the page so the view comes back from the URL.

HAProxy names each session's replica in the LENS_REPLICA cookie (deploy/haproxy.cfg.in) and
replaces it when it has to send the session elsewhere. Streamlit's browser client then keeps its
old page on screen over a new, empty server session (or reruns the default page); a reload opens
the last URL of the view instead, from which the new replica rebuilds it. Without HAProxy there
is no cookie and this does nothing.
"""

from __future__ import annotations

import streamlit as st

COOKIE = "LENS_REPLICA"  # the `cookie` line of deploy/haproxy.cfg.in

# Runs once per page load (the flag on window): every 250 ms remember the page's URL while the
# cookie keeps its first value; when it changes, open the URL from before the move.
_SCRIPT = """<script>
if (!window.__lensFailover) {
  window.__lensFailover = true;
  const read = () => (document.cookie.match(/(?:^|; )COOKIE=([^;]*)/) || [])[1];
  const first = read();
  let href = location.href;
  setInterval(() => {
    const now = read();
    if (!first || !now || now === first) href = location.href;
    else if (href === location.href) location.reload();
    else location.replace(href);
  }, 250);
}
</script>""".replace("COOKIE", COOKIE)


def reload_on_new_replica() -> None:
    """Draw the watcher (an empty element at the foot of the sidebar)."""
    st.sidebar.html(_SCRIPT, unsafe_allow_javascript=True)
