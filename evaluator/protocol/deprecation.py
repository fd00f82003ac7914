"""How NegHub retires a public import path: the old module keeps working for one minor release and says, once
per process, what to import instead (CHANGELOG.md, "Plugin API": a name is removed in the minor release after
the one that deprecates it).

The warning is a `DeprecationWarning` of its own class, so that the registry can tell a plugin's use of a
retired path from anything else the plugin's import warns about, and print it with the plugin's name where
Python's default filters would hide it (they show a `DeprecationWarning` only to code run as `__main__`).
"""

from __future__ import annotations

import warnings

PUBLIC_MODULE = "neghub.evaluator.plugin"  # the one module plugins import from (evaluator/plugin.py)


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
