"""A YAML reader for files written by strangers (a submission's `metadata.yaml`).

It accepts the JSON-like subset of YAML a person writes by hand and nothing that could surprise:
- no aliases or anchors (an alias bomb expands a few bytes into gigabytes), no tags at all (`!!python/object`
  and friends are refused outright, not merely ignored), no duplicate keys, exactly one document;
- scalars resolve as in YAML 1.2's JSON schema, not YAML 1.1: only `true`/`false` are booleans (so `NO`,
  `yes`, `on` stay strings), only `null`/`~`/empty are null, dates stay strings, `.inf`/`.nan` stay strings;
- a number with a leading zero (`0123`) is REFUSED rather than kept as a string or read as octal: YAML 1.1
  tools read it as 83, YAML 1.2 tools as 123, so whatever we chose someone would be misread. Quote it
  if a string is meant;
- integers have at most 20 digits and floats must be finite (`1e400` is refused);
- nesting is capped, so a deeply nested document cannot exhaust the stack.
The pydantic model that receives the result then types every field strictly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .jsonl import lone_surrogate

MAX_DEPTH = 32
MAX_INT_DIGITS = 20

_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$")
# a number with a leading 0 that YAML 1.1 or YAML 1.2's core schema reads as a number: 0123, 0b101 (binary takes
# only 0 and 1), 0o17 (octal 0 to 7), 0x1f; "0b910dd..." (a sha256) is a string in every schema and stays one
_LEADING_ZERO = re.compile(r"^[-+]?0[0-9_]+(?:\.[0-9]*)?$|^[-+]?0(?:b[01_]+|o[0-7_]+|x[0-9a-fA-F_]+)$")
_AMBIGUOUS_NUMBER_TAG = "tag:neghub,2025:ambiguous-number"
# PyYAML's own words for a tab in the indentation ("found character '\t' that cannot start any token") name no fix
TAB_MESSAGE = "invalid YAML: a tab character in the indentation: indent with spaces (YAML does not allow tabs there)"


class SafeYAMLError(ValueError):
    """A refused construct, with the 1-based line it is on (None when the whole file is concerned)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _line(node_or_event: Any) -> int | None:
    mark = getattr(node_or_event, "start_mark", None)
    return None if mark is None else int(mark.line) + 1


class StrictResolver(yaml.resolver.BaseResolver):
    """YAML 1.2 JSON-schema resolution, plus a marker tag for ambiguous leading-zero numbers."""


StrictResolver.yaml_implicit_resolvers = {}
StrictResolver.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))
StrictResolver.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:null|~|)$"), ["n", "~", ""])
StrictResolver.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-0123456789"))
StrictResolver.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-0123456789"))
StrictResolver.add_implicit_resolver(_AMBIGUOUS_NUMBER_TAG, _LEADING_ZERO, list("-+0"))


class StrictLoader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.composer.Composer,
    yaml.constructor.SafeConstructor,
    StrictResolver,
):
    """SafeLoader's pieces with the composer and constructor tightened (see the module docstring)."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        StrictResolver.__init__(self)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent):
            raise SafeYAMLError(f"alias *{event.anchor} is not allowed (write the value out)", _line(event))
        if isinstance(event, ScalarEvent) and lone_surrogate(event.value) is not None:
            raise SafeYAMLError(
                f"a value holds {lone_surrogate(event.value)}, half of a UTF-16 surrogate pair, alone: not text that "
                "UTF-8 can encode (write the character itself)",
                _line(event),
            )
        if isinstance(event, ScalarEvent | SequenceStartEvent | MappingStartEvent):
            if event.anchor is not None:
                raise SafeYAMLError(f"anchor &{event.anchor} is not allowed", _line(event))
            if event.tag is not None and event.tag != "!":
                raise SafeYAMLError(f"tag {event.tag} is not allowed (plain values only)", _line(event))
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise SafeYAMLError(f"nested more than {MAX_DEPTH} levels deep", _line(event))
            node: Node = super().compose_node(parent, index)  # type: ignore[assignment]
        finally:
            self._depth -= 1
        return node

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int | None] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, ScalarNode):
                raise SafeYAMLError("a key must be a plain scalar", _line(key_node))
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str):  # `true:` and `1:` would even be the same key in Python
                kind = {bool: "a boolean", int: "a number", float: "a number", type(None): "null"}.get(
                    type(key), "no text"
                )
                raise SafeYAMLError(
                    f"key {key_node.value} is not a string (YAML reads it as {kind}: quote it if text is meant)",
                    _line(key_node),
                )
            if key in seen:
                raise SafeYAMLError(f"duplicate key {key!r} (first on line {seen[key]})", _line(key_node))
            seen[key] = _line(key_node)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: ScalarNode) -> int:
        text = str(node.value)
        digits = text.lstrip("-")
        if len(digits) > MAX_INT_DIGITS:
            raise SafeYAMLError(f"number with {len(digits)} digits is too long (at most {MAX_INT_DIGITS})", _line(node))
        return int(text)

    def construct_yaml_float(self, node: ScalarNode) -> float:
        value = float(str(node.value))
        if not math.isfinite(value):
            raise SafeYAMLError(
                f"number {str(node.value)[:20]} is out of range (expected a finite number)", _line(node)
            )
        return value

    def construct_ambiguous_number(self, node: ScalarNode) -> Any:
        raise SafeYAMLError(
            f"{node.value} is ambiguous (YAML 1.1 and YAML 1.2 read a number with a leading 0 differently): "
            "write it in plain decimal, or quote it if a string is meant",
            _line(node),
        )

    def construct_undefined(self, node: Node) -> Any:
        raise SafeYAMLError(f"tag {node.tag} is not allowed (plain values only)", _line(node))


StrictLoader.yaml_constructors = {
    "tag:yaml.org,2002:null": yaml.constructor.SafeConstructor.construct_yaml_null,
    "tag:yaml.org,2002:bool": yaml.constructor.SafeConstructor.construct_yaml_bool,
    "tag:yaml.org,2002:int": StrictLoader.construct_yaml_int,
    "tag:yaml.org,2002:float": StrictLoader.construct_yaml_float,
    "tag:yaml.org,2002:str": yaml.constructor.SafeConstructor.construct_yaml_str,
    "tag:yaml.org,2002:seq": yaml.constructor.SafeConstructor.construct_yaml_seq,
    "tag:yaml.org,2002:map": yaml.constructor.SafeConstructor.construct_yaml_map,
    _AMBIGUOUS_NUMBER_TAG: StrictLoader.construct_ambiguous_number,
    None: StrictLoader.construct_undefined,
}
StrictLoader.yaml_multi_constructors = {}


@dataclass(frozen=True)
class Document:
    """The loaded value and its node tree (kept to find the line of a field named by a later check)."""

    value: Any
    root: Node | None

    def line_of(self, path: tuple[str | int, ...]) -> int | None:
        """The line of the deepest node along `path` that exists (a missing key points at its parent)."""
        node = self.root
        line = _line(node) if node is not None else None
        for part in path:
            child: Node | None = None
            key_line: int | None = None
            if isinstance(node, MappingNode):
                pair = next(((k, v) for k, v in node.value if isinstance(k, ScalarNode) and k.value == part), None)
                if pair is not None:
                    child, key_line = pair[1], _line(pair[0])
            elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                child = node.value[part]
            if child is None:
                continue  # a union's tag in a pydantic location, or a missing key: stay on the parent
            node = child
            line = key_line if key_line is not None else _line(node)  # a field is on its key's line
        return line


class _EventsLoader(StrictLoader):
    """StrictLoader composing the events that libyaml's C parser produced: the same composer and constructor, with
    every check above, at a tenth of the pure-Python parser's time (metadata.yaml files are read by the thousand
    in a site build)."""

    def __init__(self, stream: str, events: list[Any]) -> None:
        super().__init__(stream)  # the reader's own check of the characters runs as before
        self._events = events
        self._next = 0

    def check_event(self, *choices: Any) -> bool:
        if self._next >= len(self._events):
            return False
        return not choices or isinstance(self._events[self._next], choices)

    def peek_event(self) -> Any:
        return self._events[self._next] if self._next < len(self._events) else None

    def get_event(self) -> Any:
        event = self._events[self._next]
        self._next += 1
        return event


def _c_events(text: str) -> list[Any] | None:
    """The document's events from libyaml's parser, or None where it is absent or finds the text malformed: the
    pure-Python parser then reads it, and its messages name the problem (they are the ones NegHub's users see)."""
    if not getattr(yaml, "__with_libyaml__", False):
        return None
    try:
        return list(yaml.parse(text, Loader=yaml.CSafeLoader))
    except yaml.YAMLError:
        return None


def load(text: str) -> Document:
    """Load one YAML document strictly; raises SafeYAMLError (with its line) on anything refused or malformed."""
    loader: StrictLoader | None = None
    try:
        events = _c_events(text)
        # the reader refuses control characters here already
        loader = StrictLoader(text) if events is None else _EventsLoader(text, events)
        try:
            root = loader.get_single_node()
        except yaml.composer.ComposerError as exc:
            if "single document" in f"{exc.context} {exc.problem}":
                raise SafeYAMLError("has more than one YAML document (expected exactly one)", _mark_line(exc)) from None
            raise
        value = None if root is None else loader.construct_document(root)
    except SafeYAMLError:
        raise
    except yaml.MarkedYAMLError as exc:
        if exc.problem is not None and "character '\\t'" in exc.problem:
            raise SafeYAMLError(TAB_MESSAGE, _mark_line(exc)) from None
        raise SafeYAMLError(f"invalid YAML: {exc.problem or exc.context}", _mark_line(exc)) from None
    except yaml.YAMLError as exc:
        raise SafeYAMLError(
            f"invalid YAML: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", None
        ) from None
    except RecursionError:
        raise SafeYAMLError("invalid YAML: nested too deeply", None) from None
    finally:
        if loader is not None:
            loader.dispose()
    return Document(value, root)


def _mark_line(exc: yaml.MarkedYAMLError) -> int | None:
    mark = exc.problem_mark or exc.context_mark
    return None if mark is None else int(mark.line) + 1
