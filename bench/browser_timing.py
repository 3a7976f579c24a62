"""Timing a rerun in Chromium, in the page's own clock (bench/ui_latency.py, bench/load.py).

INSTRUMENT (an init script) records the user's input (keydown or pointerdown), every change of
the app's `[data-test-script-state]`, the last DOM change inside any `.js-plotly-plot`, the last
websocket message from the server, and the frames painted after those (two
requestAnimationFrame later). SETTLED([quiet, charts]) is true
once the script has finished, at least `charts` charts are drawn (a chart's code loads lazily:
a page can be quiet before its first chart exists) and nothing has changed for `quiet` ms;
RESULT then gives the time from the input to the later of the two paints (the quiet wait is not
counted) and the time from `running` to `notRunning` as the browser saw it. DRAWN counts the
drawn charts.
"""

BENCH_ARGS = [  # the brief's Chromium: software rendering, nothing in the background
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Records, in the page's clock: the keydown, every script-state change, the last change inside
# a chart, and the frames painted after those (two requestAnimationFrame later).
INSTRUMENT = """
(() => {
  const m = window.__bench = {t0: null, states: [], lastPlot: 0, plotPaint: 0, finPaint: 0,
                              firstPaint: 0, lastMsg: 0, msgPaint: 0};
  const paintAfter = (set) => requestAnimationFrame(() => requestAnimationFrame(
      () => set(performance.now())));
  // every message from the server: a rerun that changes nothing on the page still ends with
  // one (its "script finished"), and the page is answered once that message is handled
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        m.lastMsg = performance.now();
        paintAfter((t) => { m.msgPaint = Math.max(m.msgPaint, t); });
      });
    }
  };
  for (const ev of ['keydown', 'pointerdown']) {
    document.addEventListener(ev, () => { m.t0 = performance.now(); }, true);
  }
  const obs = new MutationObserver((muts) => {
    let plot = false;
    for (const r of muts) {
      if (r.type === 'attributes' && r.attributeName === 'data-test-script-state') {
        const s = r.target.getAttribute('data-test-script-state');
        m.states.push([s, performance.now()]);
        if (s === 'notRunning') paintAfter((t) => { m.finPaint = t; });
      } else {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        if (el && el.closest && el.closest('.js-plotly-plot')) plot = true;
        for (const n of r.addedNodes || []) {
          if (n.nodeType === 1 && (n.matches('.js-plotly-plot, .main-svg') ||
                                   n.querySelector('.js-plotly-plot'))) plot = true;
        }
      }
    }
    if (plot) {
      m.lastPlot = performance.now();
      paintAfter((t) => { m.plotPaint = Math.max(m.plotPaint, t);
                          if (!m.firstPaint) m.firstPaint = t; });
    }
  });
  const start = () => obs.observe(document.documentElement, {subtree: true, childList: true,
      attributes: true, characterData: true, attributeFilter: ['data-test-script-state',
      'class', 'style', 'd', 'transform', 'width', 'height', 'x', 'y']});
  if (document.documentElement) start(); else addEventListener('DOMContentLoaded', start);
})();
"""

SETTLED = """
([quiet, charts]) => {
  const m = window.__bench, app = document.querySelector('[data-test-script-state]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const drawn = [...document.querySelectorAll('.js-plotly-plot')].filter((g) => g._fullLayout);
  if (drawn.length < Math.max(1, charts)) return false;
  const after = m.states.filter((s) => m.t0 === null || s[1] > m.t0);
  // a very quick rerun can go running -> notRunning within one React render: the attribute
  // never changes, but the charts do, or (nothing on the page changed) the server's messages
  // of that rerun arrive
  const quick = after.length === 0 && m.t0 !== null && (m.lastPlot > m.t0 || m.lastMsg > m.t0);
  if (m.t0 !== null && !quick && !after.some((s) => s[0] === 'notRunning')) return false;
  const lastState = Math.max(0, ...after.map((s) => s[1]));
  return performance.now() - Math.max(m.lastPlot, lastState, m.lastMsg) > quiet &&
         m.finPaint >= lastState && m.plotPaint >= m.lastPlot && m.msgPaint >= m.lastMsg;
}
"""

RESULT = """
() => {
  const m = window.__bench;
  const after = m.states.filter((s) => s[1] > m.t0);
  const run = after.find((s) => s[0] === 'running');
  const fin = after.filter((s) => s[0] === 'notRunning').pop();
  return {total: Math.max(m.finPaint, m.plotPaint, m.msgPaint) - m.t0,
          script: run && fin ? fin[1] - run[1] : null,
          charts: document.querySelectorAll('.js-plotly-plot').length};
}
"""

RESET = (  # before the next input
    "() => { const m = window.__bench; m.t0 = null; m.states = [];"
    " m.lastPlot = m.plotPaint = m.finPaint = m.lastMsg = m.msgPaint = 0; }"
)

DRAWN = (
    "() => [...document.querySelectorAll('.js-plotly-plot')].filter((g) => g._fullLayout).length"
)
