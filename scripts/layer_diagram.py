"""Draw NegHub's layers into README.md's Layout, from the code: `nox -s layers` writes it, tests/test_layer_diagram.py
fails while the README's copy differs from what this prints.

    python scripts/layer_diagram.py [--root CHECKOUT] [--write]

The order and each layer's job are pyproject.toml's evaluator-layers contract (`[tool.importlinter]`: its layers,
top to bottom, and the comment beside each); which layer imports which is grimp's import graph of the code, the
graph lint-imports checks the contracts on, with the same settings (`exclude_type_checking_imports`, external
packages). Without `--write` the diagram is printed: the lines between README's two markers.

The diagram is a text block rather than Mermaid: the README is read in a terminal as much as on GitHub, and where
each layer imports most of those below it a rendered graph is a tangle of crossing arrows (and Mermaid's source, in
a terminal, a list of edges without the order), while one line per layer saying what it imports reads the same
everywhere and shows an import that appears or goes as a one-line diff.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grimp

ROOT = Path(__file__).resolve().parents[1]
BEGIN = "<!-- layers:begin -->"
END = "<!-- layers:end -->"
LAYERS_CONTRACT = "evaluator-layers"
# the folders setup.py installs under the one import name (neghub/ links them in the source tree; the sdist has
# no neghub/, and its tests draw the diagram too)
FOLDERS = ("evaluator", "leaderboard")
# import-linter's layer syntax: siblings that never import each other, siblings that may
INDEPENDENT, OPEN = "|", ":"
ARROW = "→"


@dataclass(frozen=True)
class Layer:
    """One row of the layers contract: its members (siblings, or one module), whether they are independent, and
    the job its comment gives."""

    members: tuple[str, ...]
    independent: bool
    job: str

    @property
    def label(self) -> str:
        return f" {INDEPENDENT if self.independent else OPEN} ".join(self.members)


@dataclass(frozen=True)
class Contracts:
    """What the diagram takes from pyproject.toml."""

    root_package: str
    container: str
    layers: tuple[Layer, ...]
    names: tuple[str, ...]  # every contract's name, in the file's order
    external: tuple[str, ...]  # the third-party packages a `forbidden` contract keeps out of some modules
    exclude_type_checking_imports: bool


def _layer(row: str, job: str) -> Layer:
    independent = INDEPENDENT in row
    members = tuple(part.strip().strip("()") for part in re.split(r"[|:]", row))
    return Layer(members=members, independent=independent, job=job)


def _layer_comments(text: str, rows: list[str]) -> list[str]:
    """The comment beside each row of the layers contract's `layers = [...]` (tomllib drops comments): the rows are
    read from the text again, each on its own line, and must come out as the rows tomllib read."""
    lines = text.splitlines()
    start = lines.index(f'id = "{LAYERS_CONTRACT}"')
    opening = next(i for i in range(start, len(lines)) if lines[i].startswith("layers = ["))
    found: list[tuple[str, str]] = []
    for line in lines[opening + 1 :]:
        if line.strip() == "]":
            break
        matched = re.fullmatch(r'\s*"(?P<row>[^"]+)",?\s*(?:#\s*(?P<job>.*))?', line)
        if matched:
            found.append((matched["row"], (matched["job"] or "").strip()))
    if [row for row, _ in found] != rows:
        raise SystemExit(f"pyproject.toml: write each layer of {LAYERS_CONTRACT} on its own line, with its comment")
    missing = [row for row, job in found if not job]
    if missing:
        raise SystemExit(f"pyproject.toml: say each layer's job in a comment beside it (none for {missing})")
    return [job for _, job in found]


def read_contracts(pyproject: Path) -> Contracts:
    text = pyproject.read_text(encoding="utf-8")
    config: dict[str, Any] = tomllib.loads(text)["tool"]["importlinter"]
    contracts: list[dict[str, Any]] = config["contracts"]
    (layers,) = (contract for contract in contracts if contract["id"] == LAYERS_CONTRACT)
    (container,) = layers["containers"]
    rows: list[str] = layers["layers"]
    root = config["root_package"]
    external = [
        module
        for contract in contracts
        if contract["type"] == "forbidden"
        for module in contract["forbidden_modules"]
        if module.split(".")[0] != root
    ]
    return Contracts(
        root_package=root,
        container=container,
        layers=tuple(_layer(row, job) for row, job in zip(rows, _layer_comments(text, rows), strict=True)),
        names=tuple(contract["name"] for contract in contracts),
        external=tuple(dict.fromkeys(external)),
        exclude_type_checking_imports=bool(config.get("exclude_type_checking_imports", False)),
    )


def import_graph(root: Path, contracts: Contracts) -> grimp.ImportGraph:
    """grimp's graph of the package in the checkout `root`, built on a copy of its sources that is a regular
    package (the source tree's neghub/ is a namespace of links, which grimp does not walk into), first on
    sys.path so that no installed NegHub is read instead."""
    with tempfile.TemporaryDirectory(prefix="layer-diagram-") as work:
        package = Path(work) / contracts.root_package
        for folder in FOLDERS:
            shutil.copytree(root / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
        (package / "__init__.py").write_text("", encoding="utf-8")
        sys.path.insert(0, work)
        try:
            return grimp.build_graph(
                contracts.root_package,
                include_external_packages=True,
                exclude_type_checking_imports=contracts.exclude_type_checking_imports,
                cache_dir=None,
            )
        finally:
            sys.path.remove(work)


def _name(module: str) -> str:
    return module.rsplit(".", 1)[-1]


def _docstring(root: Path, module: str) -> str:
    """The first line of a top-level package's docstring, from the checkout's folder of that name."""
    source = (root / _name(module) / "__init__.py").read_text(encoding="utf-8")
    return (ast.get_docstring(ast.parse(source)) or "").split("\n", 1)[0]


def diagram(root: Path, contracts: Contracts, graph: grimp.ImportGraph) -> str:
    """The lines between README's markers: the package's other top-level packages (the leaderboard) with their
    docstrings' first lines, then the evaluator's layers top to bottom with their jobs; under each, what each of
    its modules imports of NegHub, in this order, and of the third-party packages a contract forbids; last,
    every contract by name."""
    container = contracts.container
    placed = [f"{container}.{member}" for layer in contracts.layers for member in layer.members]
    unplaced = sorted(graph.find_children(container) - set(placed))
    if unplaced:
        raise SystemExit(f"{', '.join(unplaced)}: in no layer of pyproject.toml's {LAYERS_CONTRACT} contract")
    beside = sorted(graph.find_children(contracts.root_package) - {container})
    order = [*beside, *placed]
    external = [module for module in contracts.external if module in graph.modules]

    def imports(importer: str) -> str:
        def uses(imported: str) -> bool:
            return graph.direct_import_exists(importer=importer, imported=imported, as_packages=True)

        ours = [_name(module) for module in order if module != importer and uses(module)]
        theirs = [module for module in external if uses(module)]
        listed = ", ".join(ours) or f"nothing of {contracts.root_package}"
        return f"{listed}; {', '.join(theirs)}" if theirs else listed

    rows = [(module, _docstring(root, module), [module]) for module in beside]
    rows += [(layer.label, layer.job, [f"{container}.{m}" for m in layer.members]) for layer in contracts.layers]
    width = max(len(label) for label, _, _ in rows) + 2
    heading = [
        "",
        f"{container}, top to bottom: each layer imports only those below it",
        f"(a {INDEPENDENT} b: siblings that never import each other; a {OPEN} b: siblings that may)",
        "",
    ]
    lines = ["```text"]
    for index, (label, job, modules) in enumerate(rows):
        if index == len(beside):
            lines += heading
        lines.append(f"{label:<{width}}{job}")
        lines += [f"  {_name(module)} {ARROW} {imports(module)}" for module in modules]
    lines += ["", "contracts (pyproject.toml, checked by `nox -s lint`):"]
    lines += [f"  {name}" for name in contracts.names]
    lines.append("```")
    return "\n".join(lines) + "\n"


def draw(root: Path) -> str:
    contracts = read_contracts(root / "pyproject.toml")
    return diagram(root, contracts, import_graph(root, contracts))


def readme_block(readme: str) -> str:
    """What README.md holds between its markers (each on its own line)."""
    _, begin, rest = readme.partition(f"{BEGIN}\n")
    inside, end, _ = rest.partition(f"{END}\n")
    if not begin or not end:
        raise SystemExit(f"README.md: no {BEGIN} ... {END} block, each marker ending its line")
    return inside


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to draw (default: this one)")
    parser.add_argument("--write", action="store_true", help="replace the block in the checkout's README.md")
    args = parser.parse_args(argv)
    drawn = draw(args.root)
    if not args.write:
        sys.stdout.write(drawn)
        return 0
    readme_file = args.root / "README.md"
    readme = readme_file.read_text(encoding="utf-8")
    old = readme_block(readme)
    readme_file.write_text(readme.replace(f"{BEGIN}\n{old}{END}\n", f"{BEGIN}\n{drawn}{END}\n", 1), "utf-8")
    print("README.md: the layer diagram is " + ("unchanged" if old == drawn else "redrawn"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
