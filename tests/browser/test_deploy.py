"""deploy/serve.sh in Chromium: two replicas behind HAProxy, sessions on both, one replica killed.

Every session is its own browser context (own cookies), opened with its own sentence and view.
HAProxy's affinity cookie (LENS_REPLICA) says which replica serves it. After a SIGKILL of one
replica its sessions must come back on the other with the same view (page, sentence, settings:
all from the URL) and no exception; the other sessions are left alone.
"""

from __future__ import annotations

import functools
import os
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.server import ROOT
from tests.helpers.browser import eventually, wait_for_app
from tests.helpers.browser import url as page_url

pytestmark = pytest.mark.browser

COOKIE = "LENS_REPLICA"  # deploy/haproxy.cfg.in, ui/failover.py
# (path, query) of each session: the home page, and the step page with its own controls in the URL.
# HAProxy (leastconn) alternates new sessions between the replicas; the first session's is killed.
VIEWS = [
    ("", {"n_heads": "2", "seed": "11", "mask": "causal"}),
    ("step", {"seed": "12", "head": "1", "query": "2"}),
    ("step", {"n_heads": "2", "seed": "13", "head": "1", "query": "3"}),
]
TICKS = (
    "() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(g => g._fullLayout ?"
    " [...(g._fullLayout.xaxis.ticktext || []), ...(g._fullLayout.yaxis.ticktext || [])] : [])"
)


def sentence(i: int) -> str:
    return f"user{i} reads sentence number{i}"


def _free_ports(n: int) -> int:
    """A port P with P ... P+n-1 all free on 127.0.0.1."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + n > 65535:
            continue
        try:
            for p in range(base, base + n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
    raise RuntimeError("no free ports")


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """`bash deploy/serve.sh --replicas 2` on free ports; yields (url, run dir)."""
    run = tmp_path_factory.mktemp("deploy")
    port = _free_ports(3)
    log = open(run / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        ["bash", str(ROOT / "deploy" / "serve.sh"), "--replicas", "2", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "LENS_RUN_DIR": str(run)},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: teardown stops all of it
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600  # apt-get install haproxy on a fresh machine
        while not _healthy(url):  # HAProxy starts once both replicas answer
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("serve.sh did not start:\n" + (run / "serve.log").read_text())
            time.sleep(0.5)
        yield url, run
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


def _replica(context) -> str:
    return next((c["value"] for c in context.cookies() if c["name"] == COOKIE), "")


def _view(pg) -> tuple[str, dict, str, str]:
    """What a person sees and can share: path, URL parameters, title, sentence in the box."""
    parts = urllib.parse.urlsplit(page_url(pg))
    query = dict(urllib.parse.parse_qsl(parts.query))
    title = pg.locator("h1").first.inner_text()
    return parts.path, query, title, pg.get_by_role("textbox", name="Sentence").input_value()


def _shows_only(pg, i: int) -> None:
    """Until the page's charts label the tokens of sentence i; then no other user's word."""
    pg.wait_for_function(
        f"(w) => ({TICKS})().includes(w)", arg=f"user{i}", timeout=120_000, polling=250
    )
    wait_for_app(pg, timeout=120_000)
    ticks = set(pg.evaluate(TICKS))
    others = {f"user{j}" for j in range(len(VIEWS)) if j != i}
    assert f"user{i}" in ticks and not ticks & others
    expect(pg.get_by_role("textbox", name="Sentence")).to_have_value(sentence(i))
    assert pg.locator('[data-testid="stException"]').count() == 0  # the charts drawn: no error


def _shows_view(pg, want: tuple) -> None:
    """Until the page shows `want` (`_view`): the URL is written at the end of a run, after
    the charts, so a view read as the charts appear may still be the one before."""

    def check():
        assert _view(pg) == want

    eventually(check, timeout=120)


def test_sessions_survive_a_replica(deployment, browser):
    url, run = deployment
    contexts, pages = [], []
    for i, (path, params) in enumerate(VIEWS):  # one after another, as a class arrives
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        # on to the next once this page's websocket is open: leastconn then sends it elsewhere
        with pg.expect_websocket(timeout=120_000):
            pg.goto(f"{url}/{path}?" + urllib.parse.urlencode({"text": sentence(i), **params}))
        contexts.append(ctx)
        pages.append(pg)
    for i, pg in enumerate(pages):
        _shows_only(pg, i)
    replicas = [_replica(ctx) for ctx in contexts]
    assert set(replicas) == {"r1", "r2"}, replicas  # leastconn spreads the class

    def with_params(pg, path, params):  # the first run's URL holds the link's parameters
        view = _view(pg)
        assert view[0] == f"/{path}" and view[1].items() >= params.items(), view
        return view

    before = [
        eventually(functools.partial(with_params, pg, *v), 120) for pg, v in zip(pages, VIEWS)
    ]
    for pg in pages:
        pg.evaluate("() => { window.__beforeKill = true; }")  # gone when the page reloads

    dead = replicas[0]
    os.kill(int((run / f"replica-{dead[1:]}.pid").read_text()), signal.SIGKILL)

    for i, (ctx, pg) in enumerate(zip(contexts, pages)):
        if replicas[i] != dead:
            continue
        pg.wait_for_function("() => !window.__beforeKill", timeout=120_000, polling=250)
        wait_for_app(pg, timeout=120_000)
        _shows_only(pg, i)
        assert _replica(ctx) not in ("", dead)  # the reloaded page's cookie, set on its load
        _shows_view(pg, before[i])
    for i, pg in enumerate(pages):  # the sessions on the live replica never noticed
        if replicas[i] != dead:
            assert pg.evaluate("() => window.__beforeKill === true")
            assert _view(pg) == before[i]  # unchanged since read (no run in between)
            _shows_only(pg, i)

    # a moved session is live: one more seed step reruns on its new replica
    moved = replicas.index(dead)
    pg = pages[moved]
    seed = int(before[moved][1]["seed"])
    # the seed's widget is keyed by ui.controls: class st-key-_w-shared-seed-<digest>
    pg.locator('[class*="st-key-_w-shared-seed"] button[data-testid="stNumberInputStepUp"]').click()
    pg.wait_for_function(
        "(s) => new URLSearchParams(location.search).get('seed') === s",
        arg=str(seed + 1),
        timeout=120_000,
        polling=250,
    )
    wait_for_app(pg, timeout=120_000)
    _shows_only(pg, moved)
    for ctx in contexts:
        ctx.close()
