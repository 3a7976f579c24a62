"""What the string tables claim, in English and 中文 (issue 39): the temperature is √d_k, token
is 词元, published claims name their source, and wordings that taught something wrong stay
gone. The numbers the pages compute are tested on their pages (test_attention, test_efficient,
test_positional, test_scaling)."""

from __future__ import annotations

import re

import pytest

from ui.strings import STRINGS

EN, ZH = STRINGS["en"], STRINGS["zh"]
BOTH = [*EN.items(), *ZH.items()]
INVERSE = r"1\s*/\s*(?:√|\\sqrt|sqrt)\s*\(?\{*d_k\}*\)?"  # 1/√d_k, 1/sqrt(d_k), 1/\sqrt{d_k}
CALLS_INVERSE_THE_TEMPERATURE = [
    re.compile(INVERSE + r"\s*(?:is|=|就是|是)\s*(?:a |the )?(?:softmax\s*)?(?:的)?\s*"
               r"(?:temperature|温度)", re.IGNORECASE),  # fmt: skip
    re.compile(r"(?:temperature|温度)\s*(?:τ\s*)?(?:=|is|是)\s*" + INVERSE, re.IGNORECASE),
]


@pytest.mark.parametrize(
    "text",
    ["1/√d_k is a softmax temperature", "1/√d_k 就是 softmax 的温度", "temperature τ = 1/√d_k"],
)
def test_the_temperature_check_catches_the_old_wording(text):
    assert any(p.search(text) for p in CALLS_INVERSE_THE_TEMPERATURE)


def test_no_string_calls_one_over_sqrt_dk_the_temperature():
    wrong = [k for k, v in BOTH if any(p.search(v) for p in CALLS_INVERSE_THE_TEMPERATURE)]
    assert not wrong
    assert EN["scaling.temp_title"].startswith("√d_k is")
    assert ZH["scaling.temp_title"].startswith("√d_k 就是")


def test_the_saturation_result_names_the_jacobian_ratio_not_a_gradient():
    assert "‖J‖ ratio" in EN["scaling.sat_result"] and "gradient" not in EN["scaling.sat_result"]
    assert "‖J‖ 之比" in ZH["scaling.sat_result"] and "梯度" not in ZH["scaling.sat_result"]


def test_token_is_one_chinese_word():
    """词元 everywhere: no 标记 (also "marker") or 令牌, and every English string that says
    token(s), outside a placeholder, has 词元 in its 中文."""
    assert not [k for k, v in ZH.items() if "标记" in v or "令牌" in v]
    unplaced = {k: re.sub(r"\{[^}]*\}", "", v) for k, v in EN.items()}  # placeholders out
    says_token = [k for k, v in unplaced.items() if re.search(r"\btokens?\b", v)]
    assert len(says_token) > 50
    assert not [k for k in says_token if "词元" not in ZH[k]]


SOURCED = {  # key: the source its claim names, in English and in 中文
    "encoder_decoder.drop.p_help": ("Vaswani et al. 2017 (§5.4)", "Vaswani 等 2017 (§5.4)"),
    "encoder_decoder.norm.why": ("Shen et al. 2020, §3", "Shen 等 2020,§3"),
    "scaling.intro": ("Vaswani et al. 2017, §3.2.1, footnote 4", "Vaswani 等 2017,§3.2.1,脚注 4"),
    "step.s2.text": ("Vaswani et al. 2017, §3.2.1", "Vaswani 等 2017,§3.2.1"),
    "positional.similarity_intro": ("Vaswani et al. 2017, §3.5", "Vaswani 等 2017,§3.5"),
    "positional.range": ("Vaswani et al. 2017 (§3.4)", "Vaswani 等 2017 (§3.4)"),
    "positional.alibi_intro": ("Press et al. (2022, abstract)", "Press 等 (2022,摘要)"),
    "positional.rope_intro": ("Su et al. 2021", "Su 等,2021"),
    "lesson.real.text": ("Olsson et al. 2022", "Olsson 等 2022"),
    "lesson.real.induction": ("Olsson et al. 2022", "Olsson 等 2022"),
}


@pytest.mark.parametrize("key", sorted(SOURCED))
def test_published_claims_name_their_source(key):
    en, zh = SOURCED[key]
    assert en in EN[key] and zh in ZH[key]


def test_the_paper_applies_dropout_to_sublayer_outputs_not_to_attention_weights():
    en, zh = EN["encoder_decoder.drop.p_help"], ZH["encoder_decoder.drop.p_help"]
    assert "each sub-layer's output" in en and "not the paper" in en
    assert "每个子层的输出" in zh and "而不是论文" in zh


def test_norm_reasons_are_the_batch_not_inference_on_one_sentence():
    en = EN["encoder_decoder.norm.why"]
    assert "one sentence at inference" not in en
    for reason in ("running statistics", "padding", "small batches"):
        assert reason in en
    for reason in ("运行统计量", "填充", "批次小"):
        assert reason in ZH["encoder_decoder.norm.why"]


def test_layer_numbers_state_both_shares_without_a_contrast():
    """[SEP]'s share of the norms is larger than its share of the weights in some layers: the
    wording must not say "but" (但只占) either way."""
    assert " but " not in EN["reading.norms.layer_numbers"]
    assert "但" not in ZH["reading.norms.layer_numbers"]


def test_rollout_without_residual_is_alike_rows_not_uniform():
    assert "spread evenly" not in EN["reading.rollout.residual_help"]
    assert "same distribution" in EN["reading.rollout.residual_help"]
    assert "很均匀" not in ZH["reading.rollout.residual_help"]


def test_global_tokens_are_described_under_the_causal_mask_in_both_places():
    for table in (EN, ZH):
        assert "see and are seen by every token" not in table["efficient.masks_intro"]
    assert "every earlier token" in EN["efficient.masks_intro"]
    assert "every earlier token" in EN["efficient.global_help"]
    assert "之前的每个词元" in ZH["efficient.masks_intro"]
    assert "之前的每个词元" in ZH["efficient.global_help"]


def test_no_string_names_a_model_whose_architecture_is_unpublished():
    assert not [k for k, v in BOTH if "GPT-4" in v]


def test_rope_names_the_head_size_the_base_and_both_pair_layouts():
    en = EN["positional.rope_intro"]
    for part in ("base^(−2i/d_k)", "head size d_k", "500,000", "adjacent dimensions",
                 "GPT-NeoX", "permutes W_Q and W_K"):  # fmt: skip
        assert part in en
    assert "rotate-half layout of LLaMA" not in en


def test_train_hints_count_rows_and_outputs_the_same_way():
    """Row t predicts output t, counting both from 0; the decoder's row t sees keys 0..t."""
    for task in ("reverse", "copy", "sort"):
        assert "predict output t" in EN[f"train.hint.cross.{task}"]
    assert "(row t, counting from 0, predicts output t)" in EN["train.try.attention"]
    assert "keys 0 to t" in EN["train.hint.decoder_self"]
    assert "rows 0 to" not in EN["train.hint.decoder_self"]
