"""The benchmark registry: found, never listed; loaded when asked for, one benchmark at a time.

Built-in benchmarks are the subpackages of `neghub.evaluator.benchmarks` (folder `jnli_neg` holds the benchmark
`jnli-neg`: its `__init__.py` defines `BENCHMARK`); third-party benchmarks are installed plugins that name a
`Benchmark` (or a function returning one) in the entry-point group `neghub.benchmarks`, under the benchmark's own
name. Both sets of names are known without importing anything, so a command that names one benchmark imports
that one alone (as inspect_ai's `ensure_entry_points` loads a package's entry points when it is first asked for).

A plugin cannot break the house (HELM's plugin loading, inspect_ai's): one that fails to import, whose object is
not a valid `Benchmark`, or that claims a name another benchmark has, is left out with one warning on stderr (once
per process) naming its distribution and the error; every other benchmark and command works, and asking for it
by name is an input error that says why. A built-in benchmark that fails is NegHub's bug and raises. An unknown
name suggests the closest (mteb's habit).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.util
import pkgutil
import sys
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..protocol.deprecation import PUBLIC_MODULE, NegHubDeprecationWarning, internal_imports
from ..protocol.metadata import TaskName
from .benchmark import Benchmark
from .errors import InputError

if TYPE_CHECKING:
    from .results import BenchmarkSource

ENTRY_POINT_GROUP = "neghub.benchmarks"
BUILTIN_PACKAGE = "neghub.evaluator.benchmarks"

_BENCHMARKS: dict[str, Benchmark] = {}
_SOURCES: dict[str, str] = {}
_DISTRIBUTIONS: dict[str, tuple[str, str]] = {}  # name -> (distribution, version) of a plugin's benchmark
_LEFT_OUT: dict[str, str] = {}  # name -> why the plugin that claims it is left out
_WARNED: set[str] = set()


class DuplicateBenchmark(ValueError):
    """Two folders or plugins claim one benchmark name."""


class InvalidBenchmark(ValueError):
    """A benchmark object the rest of NegHub could not use."""


def register(benchmark: Benchmark, source: str) -> Benchmark:
    if benchmark.name in _BENCHMARKS:
        raise DuplicateBenchmark(
            f"benchmark {benchmark.name!r} is registered twice: by {_SOURCES[benchmark.name]} and by {source}"
        )
    _BENCHMARKS[benchmark.name] = benchmark
    _SOURCES[benchmark.name] = source
    return benchmark


# --- what exists, without importing it ----------------------------------------------------------------


@cache
def _builtin_folders() -> dict[str, str]:
    """Benchmark name -> its folder (a subpackage of the built-in package), found by listing the package."""
    package = importlib.import_module(BUILTIN_PACKAGE)
    return {
        module.name.replace("_", "-"): module.name
        for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
        if module.ispkg
    }


@dataclass(frozen=True)
class _Plugin:
    """An entry point of the group, with the distribution that declares it."""

    entry: importlib.metadata.EntryPoint

    @property
    def distribution(self) -> str:
        dist = self.entry.dist
        return "an unknown distribution" if dist is None else f"{dist.name} {dist.version}"

    @property
    def where(self) -> str:
        return f"{self.entry.value} of {self.distribution}"


@cache
def _plugins() -> dict[str, tuple[_Plugin, ...]]:
    """Benchmark name (the entry point's name) -> the plugins that declare it."""
    found: dict[str, list[_Plugin]] = {}
    for entry in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        found.setdefault(entry.name, []).append(_Plugin(entry))
    return {name: tuple(plugins) for name, plugins in found.items()}


def _known_names() -> list[str]:
    """Every name a benchmark is declared under (built-in folders, plugin entry points), none imported."""
    return sorted(set(_builtin_folders()) | set(_plugins()))


# --- loading ---------------------------------------------------------------------------------------------


def _load(name: str) -> Benchmark | None:
    """The benchmark of that name, imported now if it was not yet; None where no usable one exists."""
    if name in _BENCHMARKS:
        return _BENCHMARKS[name]
    if name in _LEFT_OUT:
        return None
    folder = _builtin_folders().get(name)
    if folder is not None:
        for plugin in _plugins().get(name, ()):
            _warn(name, f"{plugin.where} claims the name of a benchmark built into NegHub")
        return _load_builtin(name, folder)
    plugins = _plugins().get(name)
    if plugins is None:
        return None
    if len(plugins) > 1:
        _leave_out(name, f"{len(plugins)} plugins declare it: {', '.join(p.where for p in plugins)}")
        return None
    return _load_plugin(name, plugins[0])


def _load_builtin(name: str, folder: str) -> Benchmark:
    module = f"{BUILTIN_PACKAGE}.{folder}"
    benchmark = getattr(importlib.import_module(module), "BENCHMARK", None)
    if name in _BENCHMARKS:  # the folder's import looked itself up (and registered itself) already
        return _BENCHMARKS[name]
    if not isinstance(benchmark, Benchmark):
        raise InvalidBenchmark(f"{module}.BENCHMARK is not a neghub Benchmark")
    check_benchmark(benchmark, name)
    return register(benchmark, module)


def _load_plugin(name: str, plugin: _Plugin) -> Benchmark | None:
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", NegHubDeprecationWarning)
            loaded = plugin.entry.load()
        _pass_on(name, plugin, caught)
        benchmark = loaded() if callable(loaded) and not isinstance(loaded, Benchmark) else loaded
        if not isinstance(benchmark, Benchmark):
            raise InvalidBenchmark(f"{plugin.entry.value} is a {type(benchmark).__name__}, not a neghub Benchmark")
        check_benchmark(benchmark, name)
    except (Exception, SystemExit) as error:  # a plugin's own code: whatever it raises leaves it out, not the house
        _leave_out(name, f"{plugin.where}: {type(error).__name__}: {error}")
        return None
    if plugin.entry.dist is not None:
        _DISTRIBUTIONS[name] = (plugin.entry.dist.name, plugin.entry.dist.version)
    for message in _internal_imports(plugin):
        _say_once(f"warning: the plugin benchmark {name!r} ({plugin.where}) uses a deprecated import: {message}")
    return register(benchmark, f"the plugin {plugin.entry.value}")


def _internal_imports(plugin: _Plugin) -> list[str]:
    """What the sources of the plugin's top-level package (or module) import of NegHub's internal modules."""
    top = plugin.entry.module.split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.origin is None:
        return []
    folders = [Path(folder) for folder in spec.submodule_search_locations or ()]
    files = sorted(path for folder in folders for path in folder.rglob("*.py")) if folders else [Path(spec.origin)]
    base = folders[0].parent if folders else Path(spec.origin).parent
    # the public module's names, imported by name as the benchmark folders are: it re-exports from layers above
    public = frozenset(getattr(importlib.import_module(PUBLIC_MODULE), "__all__", ()))
    found: list[str] = []
    for path in files:
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        shown = path.relative_to(base).as_posix() if path.is_relative_to(base) else path.name
        found += internal_imports(source, shown, public)
    return found


def _pass_on(name: str, plugin: _Plugin, caught: list[warnings.WarningMessage]) -> None:
    """The warnings a plugin's import raised: a retired NegHub import path said on stderr with the plugin's name
    (Python's default filters would hide it: its author learns of the removal before it breaks), every other
    warning handed back to Python's own filters."""
    for warning in caught:
        if issubclass(warning.category, NegHubDeprecationWarning):
            message = f"warning: the plugin benchmark {name!r} ({plugin.where}) uses a deprecated import: "
            _say_once(message + str(warning.message))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


def _leave_out(name: str, why: str) -> None:
    """Leave the plugin benchmark `name` out, saying why."""
    _LEFT_OUT[name] = why
    _warn(name, why)


def _warn(name: str, why: str) -> None:
    """Say once per process, on stderr, that a plugin's benchmark is left out and why."""
    _say_once(f"warning: the plugin benchmark {name!r} is left out: {why}")


def _say_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        print(message, file=sys.stderr)


_NAME = TypeAdapter(TaskName)


def check_benchmark(benchmark: Benchmark, name: str) -> None:
    """What the rest of NegHub relies on in a benchmark, checked before it is registered (InvalidBenchmark)."""
    if benchmark.name != name:
        raise InvalidBenchmark(f"it is declared as {name!r} but names itself {benchmark.name!r}")
    try:
        _NAME.validate_python(benchmark.name)
    except ValidationError:
        raise InvalidBenchmark(f"{benchmark.name!r} is not a task name (lowercase letters, digits, hyphens)") from None
    expected = set(benchmark.modes) if benchmark.modes else {None}
    if set(benchmark.prediction_lines) != expected:
        raise InvalidBenchmark(
            f"its prediction_lines are for {sorted(map(str, benchmark.prediction_lines))}, "
            f"its modes {sorted(map(str, expected))}"
        )
    for model in benchmark.prediction_lines.values():
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise InvalidBenchmark(f"its prediction line model {model!r} is not a pydantic model")
    if benchmark.default_split is not None and benchmark.default_split not in benchmark.scored_splits:
        raise InvalidBenchmark(
            f"its default split {benchmark.default_split!r} is not a split it scores "
            f"({', '.join(benchmark.scored_splits)})"
        )


# --- lookups ---------------------------------------------------------------------------------------------


def benchmark_names() -> list[str]:
    """Every usable benchmark, sorted by name (every declared benchmark is loaded: a plugin that cannot be used
    is left out, with its warning)."""
    return [benchmark.name for benchmark in benchmarks()]


def benchmarks() -> list[Benchmark]:
    loaded = (_load(name) for name in _known_names())
    return sorted((benchmark for benchmark in loaded if benchmark is not None), key=lambda b: b.name)


def get_benchmark(name: str) -> Benchmark:
    """The benchmark of that name, importing it alone; an InputError (field `task`) where there is none."""
    benchmark = _load(name)
    if benchmark is not None:
        return benchmark
    raise InputError.single("task", unknown_benchmark(name))


def unknown_benchmark(name: str) -> str:
    """The words for a name no usable benchmark has: why its plugin is left out, else the closest name, or the
    list."""
    if name in _LEFT_OUT:
        return f"the plugin benchmark {name!r} is left out: {_LEFT_OUT[name]}"
    known = [known for known in _known_names() if known not in _LEFT_OUT]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]!r}?" if close else f" (known tasks: {', '.join(known)})"
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
