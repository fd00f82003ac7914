"""How NegHub retires a public import path: the old module keeps working for one minor release and says, once
per process, what to import instead (CHANGELOG.md, "Plugin API": a name is removed in the minor release after
the one that deprecates it).

The warning is a `DeprecationWarning` of its own class, so that the registry can tell a plugin's use of a
retired path from anything else the plugin's import warns about, and print it with the plugin's name where
Python's default filters would hide it (they show a `DeprecationWarning` only to code run as `__main__`).
"""

from __future__ import annotations

import ast
import warnings

PUBLIC_MODULE = "neghub.evaluator.plugin"  # the one module plugins import from (evaluator/plugin.py)
# the import paths 0.2.0 retired, each a module that re-exports what it held and warns itself (`warn_moved`)
RETIRED_PATHS = frozenset(
    {
        "neghub.evaluator.releases.metadata",
        "neghub.evaluator.releases.licenses",
        "neghub.evaluator.runners.plans",
        "neghub.evaluator.runners.requests",
    }
)
# what a plugin may import besides the public module: the packages themselves (`neghub.evaluator.__version__`)
_PACKAGES = frozenset({"neghub", "neghub.evaluator"})


class NegHubDeprecationWarning(DeprecationWarning):
    """A retired NegHub import path was imported; the message names the public import that replaces it."""


def warn_moved(old: str, names: tuple[str, ...], *, since: str, removal: str, public: str = PUBLIC_MODULE) -> None:
    """Say that the module `old` is deprecated, naming the import that replaces it. Called at the old module's
    top level, so it is said once per process (a module runs once); stacklevel 3 points the warning at the
    importing line where Python's import machinery lets it (the default filters then show it to scripts)."""
    shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    warnings.warn(
        f"{old} is deprecated since NegHub {since} and will be removed in {removal}: "
        f"import from {public} instead (from {public} import {shown})",
        NegHubDeprecationWarning,
        stacklevel=3,
    )


def internal_imports(source: str, shown_as: str, public: frozenset[str]) -> list[str]:
    """What a plugin's source file (`shown_as`: its path inside the plugin) imports of NegHub's internal modules,
    one sentence each naming the public import instead (of the imported names, those `public`, the public
    module's names, holds; the others are no plugin's to import). The worked plugin of 0.1.0 imported internal
    modules that 0.2.0 did not move (`neghub.evaluator.core.benchmark`, `neghub.evaluator.families.multiple_choice`):
    they keep working, but are deprecated for plugins and may move without a deprecation from 0.3.0 on. Read from
    the source, not the import: those modules are NegHub's own, imported by NegHub everywhere, and cannot warn
    themselves. A file that does not parse is the import's business, not this one's (nothing is said)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [(node.module, [alias.name for alias in node.names])]
        elif isinstance(node, ast.Import):
            modules = [(alias.name, []) for alias in node.names]
        else:
            continue
        for module, names in modules:
            if module.split(".")[0] != "neghub" or module in _PACKAGES | RETIRED_PATHS | {PUBLIC_MODULE}:
                continue
            held = [name for name in names if name in public]
            shown = f" (from {PUBLIC_MODULE} import {', '.join(held)})" if held else ""
            others = [name for name in names if name not in public]
            if others:
                shown += f"; {', '.join(others)}: not in the plugin API"
            found.append(
                f"{module} ({shown_as}, line {node.lineno}) is internal to NegHub: deprecated for plugins since "
                f"NegHub 0.2.0, it may move without notice from 0.3.0 on; import from {PUBLIC_MODULE} instead{shown}"
            )
    return found
