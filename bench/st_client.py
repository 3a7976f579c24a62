"""A light Streamlit client: one session over the app's own websocket, no browser.

It speaks the protocol the browser speaks (protobuf BackMsg / ForwardMsg on /_stcore/stream):
a first run with the URL's query string, then reruns with widget values, each waiting for the
script to finish. It renders nothing and caches no message, so the server does all of its work
and sends everything. Used by bench/load.py for many sessions and for the memory curve.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.parse

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState


class Run:
    """What one script run sent: its elements, exception text, bytes and duration."""

    def __init__(self):
        self.elements: list = []  # Element protos, in the order they arrived
        self.exceptions: list[str] = []
        self.bytes = 0
        self.seconds = 0.0

    def charts(self) -> list[dict]:
        return [
            json.loads(e.plotly_chart.spec) for e in self.elements if e.HasField("plotly_chart")
        ]

    def widget_id(self, key: str) -> str | None:
        """The id of the widget of control `key` (Streamlit ends the id with the widget's key:
        `key` itself, or ui/controls.py's `_w.<key>[.<digest>].<incarnation>`)."""
        for e in self.elements:
            kind = e.WhichOneof("type")
            wid = getattr(getattr(e, kind), "id", "") if kind else ""
            if not isinstance(wid, str):
                continue
            if wid.endswith(f"-{key}"):
                return wid
            tail = wid.rpartition(f"-_w.{key}")[2]
            if f"-_w.{key}" in wid and all(p.isalnum() for p in tail.split(".")[1:]) and (
                tail == "" or tail.startswith(".")
            ):
                return wid
        return None


class Session:
    """One Streamlit session on `url` (http://host:port), opened with query parameters."""

    def __init__(self, url: str):
        self.url = url
        self.ws = None
        self.pages: dict[str, str] = {}  # url path ("" for the default page) -> page hash
        self.page_hash = ""
        self.query = ""
        self.values: dict[str, str | int | float | bool] = {}  # every widget value set so far

    async def open(self, query: dict | None = None, page: str = "") -> Run:
        ws_url = self.url.replace("http", "ws", 1) + "/_stcore/stream"
        self.ws = await websockets.connect(
            ws_url,
            subprotocols=["streamlit"],
            origin=self.url,
            max_size=None,
            open_timeout=60,
        )
        self.query = urllib.parse.urlencode(query or {})
        first = await self.rerun({})
        if page:
            self.page_hash = self.pages[page]
            first = await self.rerun({})
        return first

    async def rerun(self, widgets: dict[str, str | int | float | bool]) -> Run:
        """Rerun with these widget values (id -> value); wait until the script has finished.

        Like a browser, every rerun sends every widget value set so far (a widget left out of
        a rerun's states goes back to its session-state value or default). Widgets never set
        here are not sent: they keep their session-state values or defaults.
        """
        self.values.update(widgets)
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        for wid, value in self.values.items():
            w: WidgetState = state.widget_states.widgets.add()
            w.id = wid
            if isinstance(value, bool):
                w.bool_value = value
            elif isinstance(value, int):
                w.int_value = value
            elif isinstance(value, float):
                w.double_value = value
            else:
                w.string_value = value
        run = Run()
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            data = await asyncio.wait_for(self.ws.recv(), timeout=300)
            run.bytes += len(data)
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind in ("new_session", "navigation"):  # st.navigation sends its own pages
                for p in getattr(fwd, kind).app_pages:
                    self.pages[p.url_pathname] = p.page_script_hash
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                run.elements.append(element)
                if element.HasField("exception"):
                    run.exceptions.append(element.exception.message)
            elif kind == "script_finished":
                # 0 = finished successfully; a rerun request may also end a run early
                run.seconds = time.perf_counter() - t0
                return run

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
