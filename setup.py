"""Package discovery for the build (all other metadata is in pyproject.toml).

The repository keeps NegHub's code in two folders, evaluator/ and leaderboard/; the distribution
installs them under one import name, `neghub` (`neghub.evaluator`, `neghub.leaderboard`), so that
nothing generic lands at the top level of site-packages. pyproject.toml's `find` directive cannot add
that prefix, so the packages are found here, under each folder, and mapped with `package_dir`:
a new subpackage is picked up by the build without being listed anywhere. Inside the packages, imports are
relative; neghub/ in the tree holds two links (neghub/evaluator -> evaluator/, neghub/leaderboard ->
leaderboard/) so that editors, mypy and other readers resolve `neghub.*` in the sources as they are imported.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = ("evaluator", "leaderboard")
# namespace discovery: data folders (a benchmark's release files, templates) are found too, and their
# files travel as package data (pyproject.toml)
found = find_namespace_packages(include=[pattern for folder in FOLDERS for pattern in (folder, f"{folder}.*")])

setup(
    packages=[f"neghub.{package}" for package in found],
    package_dir={f"neghub.{folder}": folder for folder in FOLDERS},
)
