"""The runners pass and read a model's key-value cache under the name its transformers version uses
(evaluator/runners/kv_cache.py): `cache` where the forward takes it (transformers 5, which warns of
`past_key_values` and says 5.40 removes it), `past_key_values` where it does not (4.56, the floor)."""

from __future__ import annotations

import warnings
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from neghub.evaluator.runners.kv_cache import cache_argument, returned_cache


class TakesCache:
    def forward(self, input_ids: Any = None, cache: Any = None, use_cache: bool | None = None) -> None: ...


class TakesPastKeyValues:
    def forward(self, input_ids: Any = None, past_key_values: Any = None) -> None: ...


class TakesAnyKeyword:
    def forward(self, **kwargs: Any) -> None: ...


def test_the_cache_goes_by_the_name_the_forward_takes() -> None:
    assert cache_argument(TakesCache(), "kv") == {"cache": "kv"}
    assert cache_argument(TakesPastKeyValues(), "kv") == {"past_key_values": "kv"}
    assert cache_argument(TakesAnyKeyword(), "kv") == {"past_key_values": "kv"}  # what every version took
    assert cache_argument(TakesCache(), None) == {}  # no cache: the forward's own default


class Output(OrderedDict[str, Any]):
    """transformers' ModelOutput: a dict of the fields set, each also an attribute."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class NewOutput:
    """transformers 5's output: a `cache` field; reading the old name is deprecated."""

    cache: Any = None

    @property
    def past_key_values(self) -> Any:
        raise AssertionError("the deprecated name was read")


def test_the_returned_cache_is_read_under_either_name() -> None:
    assert returned_cache(Output(logits=1, cache="new")) == "new"
    assert returned_cache(Output(logits=1, past_key_values="old")) == "old"
    assert returned_cache(SimpleNamespace(past_key_values="old")) == "old"
    assert returned_cache(NewOutput(cache="new")) == "new"
    assert returned_cache(NewOutput()) is None  # no cache returned: the old name is not read for it


@pytest.mark.models
def test_a_run_s_computations_raise_no_cache_deprecation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Generation, log-likelihoods after a shared prefix (its cache reused), both at once and a causal top-1, on a
    tiny Llama with the installed transformers: no warning names the old keyword."""
    torch = pytest.importorskip("torch")
    from neghub.evaluator.runners.loading import ModelSource, load_backend
    from tests.tiny_models import byte_level_bpe, tiny_llama

    corpus = ["the cat sat on the mat", "a dog ran in the park", "yes no maybe so"] * 20
    tok = byte_level_bpe(corpus, 300)
    torch.manual_seed(0)
    tiny_llama(tok, hidden_size=16).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    backend = load_backend(ModelSource("folder", str(tmp_path)))
    texts = ["the cat sat on the", "the cat sat on a"]
    requests = [(text, ["mat", "dog"]) for text in texts]
    # transformers 5 says it both ways: a FutureWarning where the old keyword is passed, and a log line, once a
    # process, where an output's old name is read
    logged: list[str] = []
    generic = pytest.importorskip("transformers.utils.generic")
    if hasattr(generic, "logger"):
        monkeypatch.setattr(generic.logger, "warning_once", lambda message, *args, **kwargs: logged.append(message))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        backend.generate(texts, 3, special_tokens=False)
        backend.loglikelihood_batch(requests)
        backend.generate_and_score(texts, 3, special_tokens=False, requests=requests)
        backend.top1(texts)
    named = [str(w.message) for w in caught if "past_key_values" in str(w.message)]
    assert named == []
    assert [message for message in logged if "past_key_values" in message] == []
