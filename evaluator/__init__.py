"""NegHub's reference evaluator: loads the pinned datasets and re-scores prediction files.

Importing this package is cheap on purpose (no torch, no pandas): `neghub validate` and
`neghub evaluate` must start fast.
"""

__version__ = "0.2.0"
