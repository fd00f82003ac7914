"""Running open-weight models on the benchmarks (`neghub run`, the extra `neghub[models]`).

Nothing here imports torch or transformers at module level: they are imported when a model is loaded.
"""
