"""The words every layer of NegHub shares, at the bottom of the import order.

What a benchmark declares and every other part reads: the dataset metadata (`metadata.py`, `licenses.py`), the
runs `neghub run` executes (`plans.py`), the engine-neutral requests and their answers (`requests.py`), what a
plan needs from a loaded model (`model.py`, a `typing.Protocol` the runners' backend satisfies), and how a
benchmark has lm-evaluation-harness score its exported runs (`lm_eval.py`). Nothing here imports another part
of NegHub, torch or transformers (the import contracts in pyproject.toml hold it to that).
"""
