"""Fixtures of the core tests: our MiniLM and Hugging Face's (the test-only reference) on the
same weights, loaded once per test module."""

import pytest

import mha_core
from mha_core.pretrained import PretrainedModel, default_model_path


@pytest.fixture(scope="module")
def ours() -> PretrainedModel:
    return mha_core.load_pretrained()


@pytest.fixture(scope="module")
def hf_model():
    from transformers import BertModel  # test-only, and slow to import: only where used

    model = BertModel.from_pretrained(
        str(default_model_path()), attn_implementation="eager", local_files_only=True
    )
    return model.eval()
