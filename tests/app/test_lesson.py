"""The Lesson page (AppTest): every station's right answer is the one computed independently
through the core API (not through the page's own question code), on three sentences, seeds and
settings; a wrong answer is marked wrong with the right answer and the live numbers; answers
are kept with the fingerprint of the numbers they were given under."""

from __future__ import annotations

import urllib.parse

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as hs
from hypothesis.stateful import invariant, rule

from mha_core import (
    AttentionConfig,
    EncoderDecoderConfig,
    load_llm,
    load_pretrained,
    norm_statistics,
    row_shares,
    run_attention,
    strongest_induction_head,
    value_norms,
    word_tokenize,
)
from mha_core.layer.stats import head_stats
from mha_core.lessons.encoder_decoder import pair_attention
from mha_core.lessons.permutation import shuffle_attention, shuffle_permutation
from mha_core.lessons.scaling import D_K_GRID, dot_product_stats
from mha_core.transformer import EncoderDecoder
from tests.helpers.app import figure, figures_by_key, plotly_array, rerun, run_app, shared
from tests.helpers.sequences import PageSequence, widget
from ui.compute.lesson import INDUCTION_N, INDUCTION_SEED, MINILM_LAYER, TARGET, fingerprint
from ui.numbers import num
from ui.sections.lesson import END, K_ANSWERS, K_PICK, K_QUIZ, K_STATION, STATIONS
from ui.state import DEFAULTS, Settings
from ui.strings import STRINGS

PAGE = "views/lesson.py"
EN = STRINGS["en"]

# three sentences, seeds and settings (words tokenizer, dot-product scores)
CASES = [
    dict(text="The animal didn't cross the street because it was too tired.", seed=0,
         d_model=64, n_heads=4, positional=True, mask="none", scale=True),
    dict(text="attention is not too shabby", seed=3, d_model=96, n_heads=8, positional=False,
         mask="none", scale=False),
    dict(text="我想住在欧洲。", seed=7, d_model=32, n_heads=2, positional=True, mask="causal",
         scale=True),
]  # fmt: skip


def _focus(tokens) -> int:
    """The token the questions follow: the last with a letter or digit (written again here)."""
    words = [i for i, tok in enumerate(tokens) if any(c.isalnum() for c in tok)]
    return words[-1] if words else len(tokens) - 1


def _config(case, **over) -> AttentionConfig:
    fields = {k: case[k] for k in ("d_model", "n_heads", "seed", "positional", "mask", "scale")}
    return AttentionConfig(**{**fields, "scoring": "dot", **over})


def _argmaxes(row: np.ndarray) -> set[str]:
    return {str(j) for j in np.flatnonzero(row >= row.max() - 1e-6)}


def _bin(x: float) -> str:
    return ("lt25", "25to50", "50to75", "gt75")[int(np.searchsorted([0.25, 0.5, 0.75], x, "right"))]


_MODELS: dict = {}


def _llm():
    if "llm" not in _MODELS:
        _MODELS["llm"] = load_llm()
    return _MODELS["llm"]


def _minilm():
    if "minilm" not in _MODELS:
        _MODELS["minilm"] = load_pretrained()
    return _MODELS["minilm"]


def expected(station: str, case: dict) -> tuple[set[str], str | None]:
    """The right options of `station` on `case`, computed through the core API, and a live
    number the explanation must quote (None: none checked)."""
    tokens = word_tokenize(case["text"]).tokens
    T, q = len(tokens), _focus(tokens)
    cfg = _config(case)
    res = run_attention(tokens, cfg)
    w = res.attention.weights[0].double().numpy()  # (nh, T, T)
    nh = case["n_heads"]
    if station == "why":
        return _argmaxes(w[0, q]), num(w[0, q].max(), 2)
    if station == "qkv":
        s = res.attention.scores[0, nh - 1, q].double().numpy()
        if case["mask"] == "causal":
            s = np.where(np.arange(T) <= q, s, -np.inf)
        return _argmaxes(s), num(s.max(), 3)
    if station == "scaling":
        stats = dot_product_stats(D_K_GRID, 4_000, case["seed"], "normal")
        ratio = stats.std[D_K_GRID.index(64)] / stats.std[D_K_GRID.index(16)]
        best = min(("1", "2", "4", "16"), key=lambda r: abs(np.log(float(r)) - np.log(ratio)))
        return {best}, num(ratio, 3)
    if station == "softmax":
        top = w[nh - 1, q].max()
        return {_bin(top)}, num(top, 2)
    if station == "heads":
        allowed = None if res.attention.allowed is None else res.attention.allowed[0]
        d = head_stats(w, allowed).mean_distance
        return _argmaxes(d), num(d.max(), 2)
    if station == "positional":
        diff = shuffle_attention(tokens, cfg, shuffle_permutation(T, case["seed"])).max_abs_diff
        return {"permute" if diff < 1e-6 else "change"}, None
    if station == "mask":
        cw = run_attention(tokens, _config(case, mask="causal")).attention.weights[0, 0, 0, T - 1]
        return {"zero" if float(cw) == 0.0 else "below"}, num(float(cw), 2)
    if station == "addnorm":
        y = norm_statistics(res.x + res.attention.output[0]).layer_normed[0].double()
        tok, feat = y.mean(-1).abs().max() < 1e-5, y.mean(0).abs().max() < 1e-5
        return {{(True, False): "token", (True, True): "both"}[(bool(tok), bool(feat))]}, None
    if station == "transformer":
        mcfg = EncoderDecoderConfig.vectors_in(
            d_model=case["d_model"], n_heads=nh, n_layers=1, norm_first=False, max_len=512,
            seed=case["seed"],
        )  # fmt: skip
        tgt = word_tokenize(TARGET).tokens
        pair = pair_attention(EncoderDecoder(mcfg).eval(), tokens, tgt, positional=cfg.positional)
        row = pair.decoder_cross[0, 0, _focus(tgt)].double().numpy()
        return _argmaxes(row), num(row.max(), 2)
    if station == "cost":
        per_token = 2 * case["d_model"] * 4  # a key and a value of d_model float32 numbers
        right = {"kv"} | ({"kvt"} if T == 1 else set())
        return right, f"{per_token:,}"
    if station == "real":
        m = _llm()
        ids = m.tokenizer.encode(case["text"])[:64]
        rows = m.trace(ids, rows=[len(ids) - 1]).attentions[:, :, 0, 0]  # (L, nh)
        share = float(rows.double().mean())
        return {_bin(share)}, num(share, 2)
    if station == "limits":
        m = _minilm()
        trace = m.trace(case["text"])
        weights = trace.attentions[MINILM_LAYER].double().numpy().mean(axis=(0, 1))
        norms = row_shares(value_norms(m, trace)[MINILM_LAYER]).double().numpy().mean(axis=(0, 1))
        same = int(np.argmax(weights)) == int(np.argmax(norms))
        return {"same" if same else "different"}, num(weights.max(), 2)
    raise KeyError(station)


def _label(station: str, value: str, case: dict) -> str:
    """The right option as the page writes it (English)."""
    if station in ("why", "qkv", "transformer"):
        return f"{value}: {word_tokenize(case['text']).tokens[int(value)]}"
    if station == "heads":
        return f"head {value}"
    if station == "cost":
        return EN[f"lesson.cost.opt.{value}"].format(value=f"{2 * case['d_model'] * 4:,}")
    if station in ("softmax", "real"):
        return EN[f"lesson.share.{value}"]
    return EN[f"lesson.{station}.opt.{value}"]


def _open(station: str, case: dict, **state):
    return run_app(PAGE, **shared(**case), **{K_STATION: station, **state})


def _answered_right(station: str, case: dict):
    """The station opened with its (first) right answer picked and checked."""
    right, _ = expected(station, case)
    at = _open(station, case, **{K_PICK: sorted(right)[0]})
    at.button(key="lesson.check").click()
    rerun(at)
    return at


def _text(at) -> str:
    return " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("station", STATIONS)
def test_the_page_grades_against_the_core(station, case):
    c = CASES[case]
    right, number = expected(station, c)
    answer = sorted(right)[0]
    at = _open(station, c, **{K_PICK: answer})
    assert not at.success and not at.error  # nothing is revealed before an answer
    at.button(key="lesson.check").click()
    rerun(at)
    assert [s.value for s in at.success] == [EN["lesson.right"]], (station, answer)
    assert f"{station}:{answer}:" in at.session_state[K_ANSWERS]
    if number is not None:
        assert number in _text(at), (station, number)
    options = widget(at, K_PICK)
    assert options is not None
    wrong = [o for o in ("0", "1", "2", "3", "lt25", "gt75", "change", "permute", "zero",
                         "above", "feature", "token", "c", "kv", "w", "same", "different",
                         "16") if o not in right
             and str(options.format_func(o)) in options.options]  # fmt: skip
    assert wrong, (station, options.options)  # every case has two heads or more
    options.set_value(wrong[0])
    rerun(at)
    at.button(key="lesson.check").click()
    rerun(at)
    assert not at.success
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and _label(station, answer, c) in errors[0], (errors, answer)
    if number is not None:  # the explanation with the live numbers is shown with the grade
        assert number in _text(at)


def _live_topic_numbers(station: str, case: dict) -> list[str]:
    """The numbers a station's topic sentence must quote, computed here through the core: the
    cost of h heads against one full-width head (5), the shuffle without positions (6), BatchNorm
    beside LayerNorm (8), the cache of one shared key/value head (10)."""
    tokens = word_tokenize(case["text"]).tokens
    T, nh, C = len(tokens), case["n_heads"], case["d_model"]
    if station == "heads":
        mults = nh * T * T * (C // nh)
        assert mults == T * T * C
        return [f"{mults:,}", f"{nh} × {T}² × {C // nh}", f"{T}² × {C}"]
    if station == "positional":
        plain = _config(case, positional=False, mask="none")
        diff = shuffle_attention(tokens, plain, shuffle_permutation(T, case["seed"])).max_abs_diff
        return [num(diff, 2)] + (["Without positional encoding"] if plain != _config(case) else [])
    if station == "addnorm":
        res = run_attention(tokens, _config(case))
        bn = norm_statistics(res.x + res.attention.output[0]).batch_normed[0].double()
        return ["BatchNorm", num(float(bn.mean(0).abs().max()), 2)]
    if station == "cost":
        return [f"{2 * (C // nh) * 4:,} bytes a token", "Ainslie et al. 2023, §2.2", "Dao et al."]
    raise KeyError(station)


@pytest.mark.parametrize("case", [0, 1])
@pytest.mark.parametrize("station", ["heads", "positional", "addnorm", "cost"])
def test_each_station_explains_its_topic_with_live_numbers(station, case):
    """The course's point of stations 5, 6, 8 and 10, in the feedback with numbers computed from
    the model on the screen, in English and in Chinese."""
    c = CASES[case]
    at = _open(station, c)
    at.button(key="lesson.show").click()
    rerun(at)
    text = _text(at)
    for want in _live_topic_numbers(station, c):
        assert want in text, (station, want, text)
    at.session_state["shared.lang"] = "zh"
    rerun(at)
    zh = _text(at)
    numbers = [w for w in _live_topic_numbers(station, c) if w[0].isdigit() and "bytes" not in w]
    for want in numbers:
        assert want in zh, (station, want, zh)
    if station == "cost":  # every unit in Chinese: "784 字节", not "784 bytes"
        feedback = [m.value for m in at.markdown if "FlashAttention" in m.value]
        assert feedback and all("bytes" not in m for m in feedback), feedback


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_figure_title_fits_a_phone(lang):
    """A lesson figure's title line is at most TITLE_PX wide (estimated): plotly cuts a longer
    one off at a phone's width (seen at 390 px on stations 1, 8, 11 and 12)."""
    from ui.sections.lesson_figures import TITLE_PX
    from viz.margins import text_px

    c = CASES[0]
    titled = 0
    for station in STATIONS:
        at = _open(station, c, **{"shared.lang": lang})
        at.button(key="lesson.show").click()
        rerun(at)
        for key, fig in figures_by_key(at).items():
            text = ((fig["layout"].get("title") or {}).get("text")) or ""
            titled += bool(text)
            for line in text.split("<br>"):
                assert text_px(line, 16) <= TITLE_PX, (station, key, line)
    assert titled >= 8


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_repeated_token_is_named_with_its_position(lang):
    """"the cat saw the dog": the mask question and its feedback say which “the” (token 0), and
    name “dog” without a position (it occurs once)."""
    case = {**CASES[0], "text": "the cat saw the dog"}
    at = _open("mask", case, **{"shared.lang": lang})
    at.button(key="lesson.show").click()
    rerun(at)
    strings = STRINGS[lang]
    the0 = strings["lesson.token_at"].format(token="“\u2068the\u2069”", i=0)
    text = _text(at)
    assert text.count(the0) >= 2, text  # the question and the explanation
    assert "“\u2068dog\u2069”" in text and strings["lesson.token_at"].split("{i}")[0].format(
        token="“\u2068dog\u2069”"
    ) + "4" not in text


def _fp(case: dict) -> str:
    return fingerprint(Settings(**{**DEFAULTS, **case, "scoring": "dot", "tokenizer": "words"}))


def test_an_answer_under_other_numbers_is_not_graded():
    c0, c1 = CASES[0], CASES[1]
    right, _ = expected("why", c0)
    answer = sorted(right)[0]
    at = _open("why", c0, **{K_ANSWERS: f"why:{answer}:{_fp(c0)}"})
    assert [s.value for s in at.success] == [EN["lesson.right"]]
    at.session_state["shared.text"] = c1["text"]  # a new sentence: the old answer is stale
    rerun(at)
    assert not at.success and not at.error
    assert [w.value for w in at.warning] == [EN["lesson.stale"]]
    at.session_state["shared.text"] = c0["text"]  # back: graded again on the same numbers
    rerun(at)
    assert [s.value for s in at.success] == [EN["lesson.right"]]


def test_quiz_mode_hides_the_show_button_and_every_reveal():
    at = _open("qkv", CASES[0], **{K_QUIZ: True})
    keys = {b.key for b in at.button}
    assert "lesson.check" in keys and "lesson.show" not in keys
    assert not at.get("plotly_chart")
    at = _open("qkv", CASES[0])
    at.button(key="lesson.show").click()
    rerun(at)
    assert at.get("plotly_chart") and at.info  # shown: the answer, the figure, no grade
    assert "qkv:-:" in at.session_state[K_ANSWERS]


def test_progress_and_the_station_are_in_the_url():
    c = CASES[0]
    right, _ = expected("why", c)
    at = _answered_right("why", c)
    at.button(key="lesson.next").click()
    rerun(at)
    link = dict(at.query_params.items())
    assert link["station"] == "qkv" and link["answers"].startswith(f"why:{sorted(right)[0]}:")
    teacher = next(c.value for c in at.code if "/lesson?" in c.value)
    fixed = dict(urllib.parse.parse_qsl(teacher.split("?", 1)[1]))
    assert fixed["station"] == "qkv" and fixed["text"] == c["text"] and fixed["seed"] == "0"
    assert "answers" not in fixed and "pick" not in fixed  # the teacher's link holds no answers
    fresh = run_app(PAGE, query=link)  # the link in a new browser: the same progress
    assert fresh.session_state[K_STATION] == "qkv"
    fresh.session_state[K_STATION] = "why"
    rerun(fresh)
    assert [s.value for s in fresh.success] == [EN["lesson.right"]]


def test_the_summary_counts_right_answers_and_links_the_rest():
    c = CASES[0]
    fp = _fp(c)
    why, _ = expected("why", c)
    wrong_qkv = next(str(i) for i in range(20) if str(i) not in expected("qkv", c)[0])
    answers = f"why:{sorted(why)[0]}:{fp},qkv:{wrong_qkv}:{fp},scaling:-:{fp},cost:kv:00000000"
    at = _open(END, c, **{K_ANSWERS: answers})
    assert EN["lesson.end_score"].format(right=1, total=len(STATIONS)) in _text(at)
    goes = [b for b in at.button if (b.key or "").startswith("lesson.go.")]
    assert [b.key for b in goes] == [f"lesson.go.{s}" for s in STATIONS if s != "why"]
    labels = {b.key: b.label for b in goes}
    assert "(wrong)" in labels["lesson.go.qkv"] and "(answer shown)" in labels["lesson.go.scaling"]
    assert "(answered under other settings)" in labels["lesson.go.cost"]
    goes[0].click()
    rerun(at)
    assert at.session_state[K_STATION] == "qkv"


def test_a_hostile_link_falls_back_with_a_notice():
    at = run_app(PAGE, query={"station": "<b>x</b>", "answers": "why:1:zz,evil", "pick": "a b"})
    assert at.warning  # named, and the defaults kept
    assert at.session_state[K_STATION] == STATIONS[0] and at.session_state[K_ANSWERS] == ""


@pytest.mark.parametrize("text", ["<b>x</b> [a](https://example.com) $x$ :smile: `y`", "x"])
def test_hostile_tokens_stay_literal_in_the_questions(text):
    at = _open("why", dict(CASES[0], text=text))
    question = next(m.value for m in at.markdown if m.value.startswith("**Head"))
    assert "<b>" not in question.replace("\\<b\\>", "")  # every markup character escaped
    at = _open("mask", dict(CASES[0], text="x"))  # one token: the station says what it needs
    assert any(EN["lesson.needs_two"] in i.value for i in at.info)


def test_the_language_switch_keeps_the_answers_and_translates():
    c = CASES[0]
    at = _answered_right("softmax", c)
    before = at.session_state[K_ANSWERS]
    at.session_state["shared.lang"] = "zh"
    rerun(at)
    assert at.session_state[K_ANSWERS] == before
    assert [s.value for s in at.success] == [STRINGS["zh"]["lesson.right"]]


def test_explore_opens_the_page_with_the_station_settings():
    c = CASES[0]
    at = _open("qkv", c)
    at.button(key="lesson.show").click()
    rerun(at)
    at.button(key="lesson.explore").click()
    rerun(at)
    q = _focus(word_tokenize(c["text"]).tokens)
    assert at.session_state["step.head"] == c["n_heads"] - 1
    assert at.session_state["step.query"] == q and at.session_state["step.stage"] == "2"
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_station_11_shows_the_real_models_induction_head(lang):
    """After the sink, the head the core picks on the repeated random sequence: its weights in
    the figure, its numbers in the text, and the explore button opens it on the llm page."""
    ind = strongest_induction_head(_llm(), INDUCTION_N, INDUCTION_SEED)
    at = _open("real", CASES[1], **{"shared.lang": lang})
    at.button(key="lesson.show").click()
    rerun(at)
    strings = STRINGS[lang]
    want = strings["lesson.real.induction"].format(
        n=INDUCTION_N, T=2 * INDUCTION_N + 1, seed=INDUCTION_SEED, total=270, layer=ind.layer,
        head=ind.head, score=num(ind.score, 2), chance=num(ind.chance, 2),
        offset=INDUCTION_N - 1,
    )  # fmt: skip
    assert want in [m.value for m in at.markdown]
    assert num(ind.score, 2) in want and f"{ind.layer}" in want
    figure(at, "lesson.fig.real")  # the sink's grid first
    fig = figure(at, "lesson.fig.real.induction")
    title = strings["lesson.real.fig_induction"].format(
        layer=ind.layer, head=ind.head, n=INDUCTION_N
    )
    drawn = str(fig["layout"]["title"]["text"]).replace("<br>", "")  # two lines on a phone
    assert title.replace(" ", "") in drawn.replace(" ", "")
    z = plotly_array(fig["data"][0]["z"])
    np.testing.assert_allclose(z, ind.weights, atol=1e-6)
    i = np.arange(INDUCTION_N + 1, 2 * INDUCTION_N + 1)  # the stripe: the second copy's rows
    assert z[i, i - INDUCTION_N + 1].mean() == pytest.approx(ind.score, abs=1e-6)
    at.button(key="lesson.explore").click()
    rerun(at)
    ss = at.session_state
    assert (ss["llm.view"], ss["llm.layer"], ss["llm.head"]) == ("heads", ind.layer, ind.head)
    assert ss["llm.score"] == "induction"
    assert ss["llm.source"] == "sentence"  # the sentence the station's sink was read on


# --- sequences: answer, change the sentence, come back, switch language ---------------------------
class LessonSequence(PageSequence):
    """The page's state machine (tests/helpers/sequences.py: sidebar, page controls, the lesson's
    buttons, language round trips, leaving and coming back, the link in a fresh session), with
    one more invariant: a grade on the screen is always for an answer given on these numbers."""

    page = "lesson"

    @rule(data=hs.data())
    def press_button(self, data):
        """A button of the page, drawn by its key (a printable value: Hypothesis prints what it
        draws, and an AppTest element does not print)."""
        keys = sorted(
            b.key
            for b in self.at.button
            if (b.key or "").startswith("lesson.") and not b.disabled  # a user cannot press it
        )
        if keys:
            self.at.button(key=data.draw(hs.sampled_from(keys))).click()
            self._run(self.at)

    @rule(station=hs.sampled_from(STATIONS[:10]))
    def answer_a_station(self, station):
        self.at.session_state[K_STATION] = station
        self._run(self.at)
        if any(b.key == "lesson.check" for b in self.at.button):
            self.at.button(key="lesson.check").click()
            self._run(self.at)

    @invariant()
    def no_answer_graded_against_numbers_off_the_screen(self):
        at = self.at
        graded = bool(at.success) or bool(at.error)
        station = at.session_state[K_STATION]
        if station == END or not graded:
            return
        s = Settings(**{n: at.session_state[f"shared.{n}"] for n in DEFAULTS})
        given = dict(
            (e.split(":")[0], e.split(":")[2]) for e in at.session_state[K_ANSWERS].split(",") if e
        )
        assert given.get(station) == fingerprint(s), (station, given)


def test_a_sequence_never_grades_against_old_numbers():
    machine = LessonSequence
    machine.TestCase.settings = settings(
        max_examples=2,
        stateful_step_count=8,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    machine.TestCase().runTest()


def test_the_target_sentence_is_the_encoder_decoder_pages():
    """Station 9's explore button opens the encoder-decoder page on the same pair and model."""
    from ui.sections import encoder_decoder

    assert TARGET == encoder_decoder.DEFAULT_TARGET
