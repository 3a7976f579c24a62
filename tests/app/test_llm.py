"""The A real language model page through AppTest: it opens, answers the default question
greedily as the core does, keeps its settings in the URL, takes hostile questions, and its
Every head, One head, Logit lens and Short or long range views draw the core's own numbers, the
sidebar's sentence can be the text, and Stop keeps the answer so far. Answers are kept short
(8-24 tokens)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

from tests.helpers.app import figure, page_text, plotly_array, rerun, run_app, shared
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


def _info(at) -> str:
    return " ".join(i.value for i in at.info)


@pytest.mark.parametrize("stage", sections.STAGES)
def test_one_head_step_by_step_is_the_traces_arithmetic(m, stage):
    from mha_core.llm import head_steps

    layer, head, query = 15, 4, 20
    at = run_app(PAGE, **{"llm.view": "arithmetic", "llm.layer": layer, "llm.head": head,
                          "llm.query": query, "llm.stage": stage})  # fmt: skip
    assert at.query_params["view"] == "arithmetic" and at.query_params["stage"] == stage
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    tr = m.trace(ids, layers=[layer])
    s = head_steps(m, tr, layer, head, query)
    text = page_text(at)
    token = repr(m.tokenizer.token_texts(ids)[query])
    title = EN["llm.one_title"].format(layer=layer, head=head, kv=1, query=query, token=token)
    assert title in [h.value for h in at.subheader]
    row = tr.attentions[layer, head, query].numpy()
    if stage == "norm":
        z = plotly_array(figure(at, "llm.one_norm_fig")["data"][0]["z"])
        np.testing.assert_allclose(z[1], tr.layers[layer].normed[query].numpy(), atol=1e-5)
    elif stage == "project":
        z = plotly_array(figure(at, "llm.one_v_fig")["data"][0]["z"])
        np.testing.assert_allclose(z, tr.layers[layer].attn.v[0, 1, : query + 1], atol=1e-5)
    elif stage == "rope":
        p = s.pair(0)
        assert at.query_params["pair"] == "0"
        data = figure(at, "llm.one_rope_fig")["data"]
        after = np.array(data[2]["customdata"][0][:2])  # q turned, its real coordinates
        np.testing.assert_allclose(after, tr.layers[layer].attn.q[0, head, query, [0, 32]],
                                   atol=1e-5)  # fmt: skip
        assert "1 rad per position" in text and p.key == 1 + int(np.argmax(row[1 : query + 1]))
    elif stage == "scores":
        z = plotly_array(figure(at, "llm.one_weights_fig")["data"][0]["z"])
        np.testing.assert_allclose(z[0], row, atol=1e-5)
        masked = plotly_array(figure(at, "llm.one_scores_fig")["data"][0]["z"])[1]
        assert np.isnan(masked[query + 1 :]).all() and np.isfinite(masked[: query + 1]).all()
        hidden = len(ids) - query - 1
        assert EN["llm.one.mask"].format(hidden=hidden) in text
    else:
        z = plotly_array(figure(at, "llm.one_out_fig")["data"][0]["z"])
        np.testing.assert_allclose(z[0], tr.layers[layer].attn.head_outputs[0, head, query],
                                   atol=1e-5)  # fmt: skip
        wo = plotly_array(figure(at, "llm.one_wo_fig")["data"][0]["z"])
        assert wo.shape == (576, 64)
    assert "10⁻" in text  # the differences from the trace, written as people write them


def test_the_logit_lens_and_the_heads_that_write_the_token(m):
    from mha_core.llm import head_attribution, logit_lens

    at = run_app(PAGE, **{"llm.view": "lens", "llm.query": "last"})
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    tr = m.trace(ids)
    lz = logit_lens(m, tr, -1)
    attr = head_attribution(m, tr, -1)
    word = repr(m.tokenizer.token_texts([lz.token])[0])
    assert lz.token == int(tr.logits[-1].argmax())
    table = at.dataframe[0].value
    assert len(table) == m.config.n_layers + 1
    assert list(table[EN["llm.col.rank"].format(word=word)]) == lz.rank.tolist()
    curve = plotly_array(figure(at, "llm.lens_fig")["data"][0]["y"])
    np.testing.assert_allclose(curve, lz.prob, atol=1e-6)
    grid = plotly_array(figure(at, "llm.attr_fig")["data"][0]["z"])
    np.testing.assert_allclose(grid, attr.heads, atol=1e-5)
    assert abs(attr.total() - attr.logit) <= 1e-3 * abs(attr.logit)
    L, h = np.unravel_index(np.argmax(attr.heads), attr.heads.shape)
    text = page_text(at)
    assert EN["llm.top_head"].format(layer=L, head=h, score=attr.heads[L, h]) in text
    assert "rms(x) is held at its value" in text  # the linearisation, said
    assert at.query_params["view"] == "lens"


def test_mean_distance_of_every_head_and_the_sentence_from_it(m):
    from mha_core.llm import llm_head_scores

    at = run_app(PAGE, **{"llm.view": "distance"})
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    sc = llm_head_scores(m, ids)
    grid = plotly_array(figure(at, "llm.dist_fig")["data"][0]["z"])
    np.testing.assert_allclose(grid, sc.distance, atol=1e-5)
    lo = np.unravel_index(np.argmin(sc.distance), sc.distance.shape)
    hi = np.unravel_index(np.argmax(sc.distance), sc.distance.shape)
    text = page_text(at)
    assert f"the shortest is layer {lo[0]} head {lo[1]}," in text
    assert f"the longest layer {hi[0]} head {hi[1]}," in text
    assert f"{(sc.distance < 2).sum()} of the 270 heads stay within 2 tokens" in text
    long = sc.distance > (len(ids) - 1) / 4
    assert f"and {(long & (sc.sink > 0.5)).sum()} of those {long.sum()} put more" in text
    if sc.sink[hi] > 0.5:
        assert f"puts {sc.sink[hi]:.2f} of its weight on position 0" in text


def test_the_sidebar_sentence_is_read_without_the_chat_template(m):
    sentence = "The cat sat on the mat because it was tired."
    at = run_app(PAGE, **shared(text=sentence),
                 **{"llm.source": "sentence", "llm.view": "heads", "llm.query": 3})  # fmt: skip
    ids = m.tokenizer.encode(sentence)
    assert EN["llm.heads_text"].format(n=len(ids)) in [e.label for e in at.expander]
    assert at.query_params["source"] == "sentence" and at.query_params["text"] == sentence
    tr = m.trace(ids, layers=[15], rows=[3], residual=False)
    z = plotly_array(figure(at, "llm.mosaic_fig")["data"][0]["z"])
    shown = z[~np.isnan(z)].reshape(30, 9, 4)
    np.testing.assert_allclose(shown, tr.attentions[:, :, 0, :4].numpy(), atol=1e-6)
    assert not at.text_input  # no question box: the sentence is the sidebar's
    # Generate continues the sentence (greedy), and the link keeps the mode
    at.session_state["llm.view"] = "ask"
    at.session_state["llm.max_new"] = 8
    rerun(at)
    at = _generate(at)
    # (st.code drops the first of the continuation's leading newlines)
    assert [c.value.strip() for c in at.code] == [m.generate(ids, 8).text.strip()]
    assert EN["llm.answer.sentence"] in [h.value for h in at.subheader]


def test_an_empty_or_hostile_sidebar_sentence(m):
    at = run_app(PAGE, **shared(text="  "), **{"llm.source": "sentence"})
    assert EN["llm.sentence_empty"] in [i.value for i in at.info]
    at = run_app(PAGE, **shared(text=HOSTILE_LINE),
                 **{"llm.source": "sentence", "llm.view": "arithmetic"})  # fmt: skip
    ids = m.tokenizer.encode(HOSTILE_LINE)
    assert [e.value for e in at.code] == [token_line(m.tokenizer.token_texts(ids))]
    assert "<b>" not in "".join(e.value for e in at.markdown)


def test_the_memory_line_links_the_efficient_calculator(m):
    at = run_app(PAGE, **{"llm.view": "heads"})
    n = len(m.chat_ids(sections.DEFAULT_QUESTION))
    info = _info(at)
    link = info[info.index("](/efficient?") + 2 : info.index(")", info.index("](/efficient?"))]
    query = {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}
    assert query["view"] == "calculator" and query["tokens"] == str(n)
    assert query["dtype"] == "float32"
    eff = run_app("views/efficient.py", query=query)
    assert not eff.warning, [w.value for w in eff.warning]
    assert eff.session_state["efficient.view"] == "calculator"
    assert eff.session_state["efficient.tokens"] == n


def test_stop_keeps_the_answer_written_so_far(m):
    from mha_core.llm import GenerationStep  # noqa: F401  (the steps' type)

    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    steps = list(m.stream(ids, 3))  # three tokens written when Stop was pressed
    ans = compute.stopped_answer(ids, steps, 0.5)
    assert ans.generation.stop_reason == "stopped"
    assert ans.generation.text == m.tokenizer.decode([s.token for s in steps])
    key = ("chat", sections.DEFAULT_QUESTION, 0.0, 0, 24)
    # the state Stop's callback leaves (sections._press_stop), then the run it starts
    at = run_app(PAGE, **{sections.K_ASKED: key, sections.K_STOPPED: (key, ans)})
    assert [c.value for c in at.code] == [ans.generation.text]
    meta = EN["llm.answer_meta"].format(n=3, seconds=0.5, why=EN["llm.stop.stopped"])
    assert meta in [c.value for c in at.caption]
    assert len(at.dataframe[0].value) == 3


def test_stops_callback_turns_the_steps_into_a_stopped_answer(m, monkeypatch):
    ids = m.chat_ids(sections.DEFAULT_QUESTION)
    steps = list(m.stream(ids, 2))
    key = ("chat", sections.DEFAULT_QUESTION, 0.0, 0, 24)
    fake = {sections.K_WRITING: [key, tuple(ids), steps, 0.0]}
    monkeypatch.setattr(sections.st, "session_state", fake)
    sections._press_stop()
    assert fake[sections.K_WRITING] is None
    got_key, ans = fake[sections.K_STOPPED]
    assert got_key == key and ans.generation.ids == tuple(s.token for s in steps)


def test_rope_at_the_first_token_says_its_only_key_is_itself():
    at = run_app(PAGE, **{"llm.view": "arithmetic", "llm.query": 0, "llm.stage": "rope"})
    text = page_text(at)
    assert EN["llm.one.key_zero"] in text and "after position 0" not in text
    assert EN["llm.one.mask"].format(hidden=36) not in text  # (the scores stage is closed)
