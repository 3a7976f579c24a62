"""The A real language model page through AppTest: it opens, answers the default question
greedily as the core does, keeps its settings in the URL, takes hostile questions, and its
Every head view draws the core's own attention numbers. Answers are kept short (8-24 tokens)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.app import figure, page_text, plotly_array, rerun, run_app
from tests.helpers.inputs import HOSTILE_LINE
from ui.compute import llm as compute
from ui.sections import llm as sections
from ui.strings import STRINGS
from ui.widgets import token_line

PAGE = "views/llm.py"
EN, ZH = STRINGS["en"], STRINGS["zh"]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def m():
    from mha_core.llm import load_llm

    return load_llm()


def _generate(at):
    at.button(key="llm.generate_button").click()
    return rerun(at)


def test_the_default_question_is_answered_greedily_as_the_core_does(m):
    at = run_app(PAGE)
    assert EN["llm.press"] in page_text(at)
    at = _generate(at)
    expected = m.generate(m.chat_ids(sections.DEFAULT_QUESTION), 24).text
    assert expected == "The capital of France is Paris."
    assert [c.value for c in at.code] == [expected]
    table = at.dataframe[0].value
    assert len(table) == len(m.generate(m.chat_ids(sections.DEFAULT_QUESTION), 24).ids)
    assert at.query_params["temperature"] == "0.0" and at.query_params["top_k"] == "0"


def test_a_link_carries_the_settings():
    link = {"question": "Why is the sky blue?", "temperature": "0.7", "top_k": "5",
            "max_new": "8", "view": "heads", "layer": "2", "head": "7", "query": "3"}  # fmt: skip
    at = run_app(PAGE, query=link)
    assert not at.warning, [w.value for w in at.warning]
    for param, value in link.items():
        assert at.query_params[param] == value
    assert at.session_state["llm.temperature"] == 0.7
    assert at.session_state["llm.query"] == 3


def test_invalid_link_values_fall_back_with_a_warning():
    at = run_app(PAGE, query={"temperature": "9", "layer": "99", "top_k": "x"})
    warning = " ".join(w.value for w in at.warning)
    assert "temperature" in warning and "layer" in warning and "top_k" in warning
    assert at.query_params["temperature"] == "0.0" and at.query_params["layer"] == "15"


def test_an_empty_question_says_so_in_both_languages():
    at = run_app(PAGE, **{"llm.question": "   "})
    assert EN["llm.empty"] in [i.value for i in at.info]
    assert not at.get("plotly_chart") and not at.button
    at.session_state["shared.lang"] = "zh"
    rerun(at)
    assert ZH["llm.empty"] in [i.value for i in at.info]
    assert at.title[0].value == ZH["llm.title"]


def test_markup_in_the_question_stays_text(m):
    at = run_app(PAGE, **{"llm.question": HOSTILE_LINE, "llm.max_new": 8})
    at = _generate(at)
    assert len(at.code) == 1  # the answer, in a code block: never rendered as markup
    assert "<b>" not in "".join(e.value for e in at.markdown)
    at.session_state["llm.view"] = "heads"
    rerun(at)
    ids = m.chat_ids(HOSTILE_LINE) + list(m.generate(m.chat_ids(HOSTILE_LINE), 8).ids)
    # the text's tokens, numbered, in a code block: literally
    assert [e.value for e in at.code] == [token_line(m.tokenizer.token_texts(ids))]


def test_a_long_question_is_cut_with_a_notice():
    question = "12345 " * 200  # 1,200 characters, 1,200 tokens (one per digit)
    at = run_app(PAGE, **{"llm.question": question, "llm.view": "heads", "llm.query": 0})
    cut = EN["llm.question_cut"].format(n=1200, limit=compute.QUESTION_TOKENS)
    assert cut in [w.value for w in at.warning]
    assert len(compute.prompt(question).ids) <= compute.MAX_TOKENS


def test_the_missing_model_is_named_on_the_page(monkeypatch):
    def missing():
        raise FileNotFoundError("no model file at /nowhere")

    monkeypatch.setattr(compute, "load_llm", missing)
    compute.model.clear()
    try:
        at = run_app(PAGE)
        assert any("/nowhere" in e.value for e in at.error)
    finally:
        monkeypatch.undo()
        compute.model.clear()


def test_the_mosaic_and_the_enlarged_head_are_the_traces_numbers(m):
    layer, head, query = 3, 4, 5
    at = run_app(
        PAGE,
        **{"llm.view": "heads", "llm.layer": layer, "llm.head": head, "llm.query": query},
    )
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    tr = m.trace(ids, layers=[layer], rows=[query], residual=False)
    z = plotly_array(figure(at, "llm.mosaic_fig")["data"][0]["z"])
    cfg = m.config
    shown = z[~np.isnan(z)].reshape(cfg.n_layers, cfg.n_heads, query + 1)
    np.testing.assert_allclose(shown, tr.attentions[:, :, 0, : query + 1].numpy(), atol=1e-6)
    big = plotly_array(figure(at, "llm.enlarged_fig")["data"][0]["z"])
    n = len(ids)
    expected = tr.layers[layer].attn.weights[0, head].numpy()
    np.testing.assert_allclose(big, expected[:n, :n], atol=1e-6)
    sink = plotly_array(figure(at, "llm.sink_fig")["data"][0]["z"])
    np.testing.assert_allclose(sink, tr.attentions[:, :, 0, 0].numpy(), atol=1e-6)
    kv = cfg.kv_cache_bytes(n)
    assert kv == 2 * 30 * 3 * 64 * n * 4
    assert f"{n} tokens x 4 bytes" in page_text(at)


def test_the_heads_read_the_answer_once_generated(m):
    at = run_app(PAGE)
    at = _generate(at)
    at.session_state["llm.view"] = "heads"
    rerun(at)
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    answer = m.generate(ids, 24)
    n = len(ids) + len(answer.ids)
    assert EN["llm.heads_text"].format(n=n) in [e.label for e in at.expander]
    assert at.query_params["query"] == "last"


def test_a_sampled_answer_is_reproduced_by_its_link(m):
    link = {"temperature": "0.7", "top_k": "5", "max_new": "8"}
    at = _generate(run_app(PAGE, query=link))
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    expected = m.generate(ids, 8, temperature=0.7, top_k=5, seed=0).text
    assert [c.value for c in at.code] == [expected or EN["llm.empty_answer"]]
    again = _generate(run_app(PAGE, query=dict(at.query_params)))  # the link, a new session
    assert [c.value for c in again.code] == [c.value for c in at.code]


def test_the_head_score_map_is_the_cores_and_names_the_top_heads(m):
    from mha_core.llm import llm_head_scores

    at = run_app(PAGE, **{"llm.view": "heads", "llm.score": "induction"})
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    want = llm_head_scores(m, ids).induction
    got = plotly_array(figure(at, "llm.scores_fig")["data"][0]["z"])
    np.testing.assert_allclose(got, want, atol=1e-6)
    L, h = np.unravel_index(np.argmax(want), want.shape)
    top = EN["llm.top_head"].format(layer=L, head=h, score=want[L, h])
    assert EN["llm.top_heads"].format(heads="").rstrip(".") in page_text(at)
    assert top in page_text(at)
