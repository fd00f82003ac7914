"""The generated part of the Submit page (site/submit.md): the list of model kinds and their fields.

The kinds a `metadata.yaml` may declare, and the fields each requires, are read from the submission models
(evaluator/submissions/format.py), so the page cannot drift from what `neghub validate` accepts. The MkDocs
hook puts the list where the page holds MODEL_KINDS_MARKER; tests/test_submit_page.py runs every command
the page shows.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from ..evaluator.submissions.format import Metadata

SUBMIT_PAGE = "submit.md"
MODEL_KINDS_MARKER = "<!-- neghub:model-kinds -->"


@dataclass(frozen=True)
class ModelKind:
    """One entry of the list: a `model.kind`, what it is for, and its fields as YAML keys (a field whose
    value is fixed is shown with it, `parameters: 0`)."""

    kind: str
    summary: str
    required: tuple[str, ...]
    optional: tuple[str, ...]


def _fixed_value(field: FieldInfo) -> str | None:
    """The YAML spelling of the one value a `Literal[...]` field allows, or None for other fields."""
    if typing.get_origin(field.annotation) is not typing.Literal:
        return None
    (value,) = typing.get_args(field.annotation)
    return "true" if value is True else "false" if value is False else str(value)


def model_kinds() -> list[ModelKind]:
    """Every kind of `Metadata.model`, in the order of the union, with its required and optional fields."""
    annotation = Metadata.model_fields["model"].annotation
    kinds: list[ModelKind] = []
    for model in typing.get_args(annotation):
        assert isinstance(model, type) and issubclass(model, BaseModel)
        fields = model.model_fields
        required: list[str] = []
        optional: list[str] = []
        for name, field in fields.items():
            if name == "kind":
                continue
            fixed = _fixed_value(field)
            shown = name if fixed is None else f"{name}: {fixed}"
            (required if field.is_required() else optional).append(shown)
        kind = _fixed_value(fields["kind"])
        assert kind is not None, f"{model.__name__}.kind is not a literal"
        summary = " ".join((model.__doc__ or "").split())
        kinds.append(ModelKind(kind, summary, tuple(required), tuple(optional)))
    return kinds


def model_kinds_list() -> str:
    """The Markdown list of model kinds (a Jinja2 template: no markup is built from strings here)."""
    from .site import environment

    return environment().get_template("model_kinds.md.j2").render(kinds=model_kinds())


def with_model_kinds(markdown: str) -> str:
    """The Submit page's Markdown with the generated list where the page holds the marker."""
    if MODEL_KINDS_MARKER not in markdown:
        raise ValueError(f"{SUBMIT_PAGE} has lost its {MODEL_KINDS_MARKER} line: the model kinds would be missing")
    return markdown.replace(MODEL_KINDS_MARKER, model_kinds_list().rstrip("\n"))
