"""The benchmark registry: found, never listed.

Built-in benchmarks are the subpackages of `neghub.evaluator.benchmarks`, found by walking the package;
third-party benchmarks are installed plugins that name a `Benchmark` in the entry-point group
`neghub.benchmarks` (as inspect_ai finds its registry). Each built-in folder's `__init__.py` defines
`BENCHMARK`. A name registered twice raises; an unknown name suggests the closest (mteb's habit).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import pkgutil
from typing import TYPE_CHECKING

from .benchmark import Benchmark
from .errors import InputError

if TYPE_CHECKING:
    from .results import BenchmarkSource

ENTRY_POINT_GROUP = "neghub.benchmarks"
BUILTIN_PACKAGE = "neghub.evaluator.benchmarks"

_BENCHMARKS: dict[str, Benchmark] = {}
_SOURCES: dict[str, str] = {}
_DISTRIBUTIONS: dict[str, tuple[str, str]] = {}  # name -> (distribution, version) of a plugin's benchmark
_loaded = False


class DuplicateBenchmark(ValueError):
    """Two folders or plugins claim one benchmark name."""


def register(benchmark: Benchmark, source: str) -> Benchmark:
    if benchmark.name in _BENCHMARKS:
        raise DuplicateBenchmark(
            f"benchmark {benchmark.name!r} is registered twice: by {_SOURCES[benchmark.name]} and by {source}"
        )
    _BENCHMARKS[benchmark.name] = benchmark
    _SOURCES[benchmark.name] = source
    return benchmark


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True  # set first: a benchmark module that looks itself up while importing must not recurse
    package = importlib.import_module(BUILTIN_PACKAGE)
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        name = f"{BUILTIN_PACKAGE}.{module.name}"
        benchmark = getattr(importlib.import_module(name), "BENCHMARK", None)
        if isinstance(benchmark, Benchmark):
            register(benchmark, name)
    for entry in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        loaded = entry.load()
        benchmark = loaded() if callable(loaded) and not isinstance(loaded, Benchmark) else loaded
        if not isinstance(benchmark, Benchmark):
            raise TypeError(f"entry point {entry.name} = {entry.value} is not a neghub Benchmark")
        register(benchmark, f"the plugin {entry.value}")
        if entry.dist is not None:
            _DISTRIBUTIONS[benchmark.name] = (entry.dist.name, entry.dist.version)


def benchmark_names() -> list[str]:
    """Every registered benchmark, sorted by name."""
    _discover()
    return sorted(_BENCHMARKS)


def benchmarks() -> list[Benchmark]:
    _discover()
    return [_BENCHMARKS[name] for name in sorted(_BENCHMARKS)]


def get_benchmark(name: str) -> Benchmark:
    _discover()
    if name in _BENCHMARKS:
        return _BENCHMARKS[name]
    raise InputError.single("task", unknown_benchmark(name))


def unknown_benchmark(name: str) -> str:
    """The words for a name no benchmark has: the closest one, or the list."""
    _discover()
    close = difflib.get_close_matches(name, list(_BENCHMARKS), n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else f" (known tasks: {', '.join(sorted(_BENCHMARKS))})"
    return f"unknown task {name!r}{hint}"


def source_of(name: str) -> str:
    """The module a benchmark was found in (a built-in folder's package, or a plugin's entry point)."""
    get_benchmark(name)
    return _SOURCES[name].removeprefix("the plugin ").split(":")[0]


def benchmark_source(benchmark: Benchmark) -> BenchmarkSource:
    """Which distribution (and version) defines a benchmark: NegHub for a built-in folder, the plugin's for an
    entry point; for a benchmark nobody registered (built in a test, say), the distribution of its module."""
    from .. import __version__
    from .results import BenchmarkSource

    _discover()
    if _BENCHMARKS.get(benchmark.name) is benchmark:
        module = source_of(benchmark.name)
        distribution, version = _DISTRIBUTIONS.get(benchmark.name, ("neghub", __version__))
        return BenchmarkSource(distribution=distribution, version=version, module=module)
    module = benchmark.evaluate.__module__
    top = module.split(".")[0]
    names = importlib.metadata.packages_distributions().get(top, [])
    if top == "neghub" or not names:
        return BenchmarkSource(
            distribution="neghub" if top == "neghub" else "unknown",
            version=__version__ if top == "neghub" else "unknown",
            module=module,
        )
    return BenchmarkSource(distribution=names[0], version=importlib.metadata.version(names[0]), module=module)
