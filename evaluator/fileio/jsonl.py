"""Strict reading of JSON Lines and atomic writing of outputs.

The reader takes bytes, not text, because the encoding itself is checked (BOM, UTF-16, invalid
UTF-8, CR line ends) and each problem must name its line. JSON is parsed strictly: no NaN or
Infinity, no number that overflows a float or has absurdly many digits, no duplicate keys, one
object per line.
"""

from __future__ import annotations

import codecs
import csv
import functools
import json
import math
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import Problem
from .files import atomic_write

MAX_LINE_BYTES = 64 * 1024
MAX_INT_DIGITS = 20  # ids and scores are small; a 5,000-digit number is an attack, not data


class _StrictJSONError(ValueError):
    pass


# A JSON escape can write half of a UTF-16 surrogate pair ("\ud83d") alone: Python then holds a string that no
# UTF-8 writer can encode, and every page or file that shows it fails. Such a string is refused where it is read.
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate of `text` as its escape (`\\ud83d`), or None when the text is encodable."""
    found = _SURROGATE.search(text)
    return None if found is None else f"\\u{ord(found.group(0)):04x}"


def surrogate_problems(value: Any, path: str = "") -> list[tuple[str, str]]:
    """(field, escape) of every string, key or value, in a parsed JSON value that holds a lone surrogate."""
    found: list[tuple[str, str]] = []
    if isinstance(value, str):
        escape = lone_surrogate(value)
        if escape is not None:
            found.append((path or "(value)", escape))
    elif isinstance(value, dict):
        for key, item in value.items():
            escape = lone_surrogate(key)
            where = f"{path}.{key}" if path else key
            if escape is not None:
                found.append((where.encode("utf-8", "backslashreplace").decode("ascii"), escape))
            else:
                found.extend(surrogate_problems(item, where))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(surrogate_problems(item, f"{path}.{index}" if path else str(index)))
    return found


def _reject_constant(name: str) -> Any:
    raise _StrictJSONError(f"{name} is not allowed (expected a finite number)")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _StrictJSONError(f"number {text[:20]} is out of range (expected a finite number)")
    return value


def _parse_int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise _StrictJSONError(f"number with {len(digits)} digits is too long (at most {MAX_INT_DIGITS})")
    return int(text)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # dict() runs in C; only when it dropped a key is the duplicate looked for
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _StrictJSONError(f"duplicate key {key!r}")
            seen.add(key)
    return result


_DECODER = json.JSONDecoder(
    parse_float=_parse_float,
    parse_int=_parse_int,
    parse_constant=_reject_constant,
    object_pairs_hook=_no_duplicate_keys,
)


_SCAN_ONCE = _DECODER.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder.__init__, untyped


def loads_strict(text: str) -> Any:
    """Parse one JSON document strictly; raises ValueError with a readable message."""
    try:
        value, end = _DECODER.raw_decode(text)
    except _StrictJSONError:
        raise
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    rest = text[end:].strip(" \t")
    if rest:
        raise ValueError(f"invalid JSON: extra data after the object at column {end + 1} (one object per line)")
    return value


# what a line of JSON Lines looks like, where a file's own first rows cannot show it
JSONL_EXAMPLE = '{"id": 12, "prediction": "contradiction"}'
_SEPARATORS = {",": "CSV (values separated by commas)", "\t": "TSV (values separated by tabs)"}
_HEADER_CELL = re.compile(r"[A-Za-z_][\w .-]*")
_MAX_EXAMPLE = 200


def tabular_file(text: str) -> str | None:
    """What to say of a file that is CSV or TSV rather than JSON Lines (one line, with a JSON Lines line to
    write instead: the file's header and first row as one object, where it has a header), or None. A file is
    taken for one when its first line is no JSON and its first few lines hold the same number (one or more) of
    commas, or of tabs: JSON Lines never does both."""
    lines = [line for line in text[: 64 * 1024].splitlines()[:6] if line.strip()]
    if not lines or lines[0].lstrip().startswith(("{", "[")):
        return None
    for separator, kind in _SEPARATORS.items():
        counts = {line.count(separator) for line in lines[:5]}
        if len(counts) == 1 and counts != {0}:
            return f"is {kind}, not JSON Lines: write one JSON object per line, like {_example(lines, separator)}"
    return None


def _example(lines: list[str], separator: str) -> str:
    """The file's header and first row as the JSON Lines line they mean, else JSONL_EXAMPLE."""
    rows = list(csv.reader(lines[:2], delimiter=separator))
    if len(rows) < 2 or not all(_HEADER_CELL.fullmatch(cell.strip()) for cell in rows[0]):
        return JSONL_EXAMPLE
    values: list[Any] = []
    for cell in rows[1]:
        cell = cell.strip()
        if re.fullmatch(PLAIN_INT, cell):
            values.append(int(cell))
        elif cell in ("", "null"):
            values.append(None)
        else:
            values.append(cell)
    example = json.dumps(dict(zip((c.strip() for c in rows[0]), values, strict=False)), ensure_ascii=False)
    return example if len(example) <= _MAX_EXAMPLE else JSONL_EXAMPLE


@dataclass
class JsonlContent:
    """The objects of a JSON Lines file with their 1-based line numbers, and what was wrong."""

    objects: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _split(text: Any, separator: Any, stop: int | None = None) -> Iterator[Any]:
    """`text[:stop].split(separator)` one piece at a time: a file of millions of tiny lines never becomes a
    list, and no copy of the text is made."""
    stop = len(text) if stop is None else stop
    start = 0
    while True:
        end = text.find(separator, start, stop)
        if end < 0:
            yield text[start:stop]
            return
        yield text[start:end]
        start = end + 1


class JsonlReader:
    """The objects of a JSON Lines file, one at a time, each with its 1-based line number; what is wrong
    with a line is appended to `problems` (a `FileProblems` stops the reading once the verdict is certain).

    `blank_lines` is "trailing" (blank lines only at the end, as a prediction file may have) or "skip"
    (anywhere, as some upstream release files need). `line_problems` counts the lines that were not
    objects: a reader then knows that any id may be missing for that reason.
    """

    def __init__(
        self,
        data: bytes,
        file: str,
        problems: list[Problem],
        *,
        blank_lines: str = "trailing",
        max_line_bytes: int = MAX_LINE_BYTES,
    ) -> None:
        self.data = data
        self.file = file
        self.problems = problems
        self.blank_lines = blank_lines
        self.max_line_bytes = max_line_bytes
        self.line_problems = 0
        # the file is no JSON Lines at all (CSV, say): one problem says so, and no id is missing for want of a line
        self.not_json_lines = False

    def _problem(self, line: int, message: str) -> None:
        self.line_problems += 1
        self.problems.append(Problem(self.file, line, None, message))

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        data = self.data
        if data.startswith(codecs.BOM_UTF8):
            self._problem(1, "starts with a UTF-8 byte-order mark (expected UTF-8 without BOM)")
            return
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or b"\x00" in data[:4096]:
            self._problem(1, "is UTF-16 or binary (expected UTF-8 text)")
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        tabular = None if text is None else tabular_file(text)
        if tabular is not None:
            self._problem(1, tabular)
            self.not_json_lines = True
            return
        if text is not None and "\r" not in text:
            yield from self._clean(text)
        else:
            yield from self._general()

    def _general(self) -> Iterator[tuple[int, dict[str, Any]]]:
        seen_blank_at: int | None = None
        for number, raw in enumerate(_split(self.data, b"\n"), start=1):
            if raw.endswith(b"\r"):
                raw = raw[:-1]  # CRLF is tolerated: Windows editors write it and it is unambiguous
            if b"\r" in raw:
                self._problem(number, "has a CR line end (expected LF line ends)")
                continue
            if not raw.strip():
                if seen_blank_at is None:
                    seen_blank_at = number
                continue
            if seen_blank_at is not None and self.blank_lines == "trailing":
                self._problem(seen_blank_at, "blank line in the middle of the file")
            seen_blank_at = None
            if len(raw) > self.max_line_bytes:
                self._problem(number, f"line is longer than {self.max_line_bytes} bytes")
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self._problem(number, f"invalid UTF-8 at byte {exc.start + 1} of the line")
                continue
            obj = self._object(number, text, loads_strict)
            if obj is not None:
                yield number, obj

    def _clean(self, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """The common case, a file that is valid UTF-8 with LF line ends: decoded once, each line handed
        straight to the C scanner. A line it does not take whole goes through `loads_strict`, which gives
        the same messages as the general path."""
        seen_blank_at: int | None = None
        # a line of at most this many characters cannot exceed the byte cap (UTF-8: at most 4 bytes each)
        short = self.max_line_bytes // 4
        for number, line in enumerate(_split(text, "\n"), start=1):
            if not line or line.isspace():
                if seen_blank_at is None:
                    seen_blank_at = number
                continue
            if seen_blank_at is not None and self.blank_lines == "trailing":
                self._problem(seen_blank_at, "blank line in the middle of the file")
            seen_blank_at = None
            if len(line) > short and len(line.encode("utf-8")) > self.max_line_bytes:
                self._problem(number, f"line is longer than {self.max_line_bytes} bytes")
                continue
            obj = self._object(number, line, _loads_fast)
            if obj is not None:
                yield number, obj

    def _object(self, number: int, text: str, parse: Callable[[str], Any]) -> dict[str, Any] | None:
        """Parse one line: the object, or None after recording why it is not one."""
        try:
            value = parse(text)
        except ValueError as exc:
            self._problem(number, str(exc))
            return None
        if not isinstance(value, dict):
            self._problem(number, f"expected a JSON object, got {json_type_name(value)}")
            return None
        if "\\u" in text:  # only an escape can write a lone surrogate into valid UTF-8 text
            bad = surrogate_problems(value)
            if bad:
                self.line_problems += 1
                for where, escape in bad:
                    self.problems.append(
                        Problem(
                            self.file,
                            number,
                            where,
                            f"holds {escape}, half of a UTF-16 surrogate pair, alone: not text that UTF-8 can "
                            "encode (write the character itself, or both halves of the pair)",
                        )
                    )
                return None
        return value


def parse_jsonl(
    data: bytes,
    file: str,
    *,
    blank_lines: str = "trailing",
    max_line_bytes: int = MAX_LINE_BYTES,
) -> JsonlContent:
    """Every object and every problem of a whole file at once (for releases NegHub pins; prediction files
    are read through `JsonlReader`, which stops early)."""
    out = JsonlContent()
    out.objects = list(JsonlReader(data, file, out.problems, blank_lines=blank_lines, max_line_bytes=max_line_bytes))
    return out


def _loads_fast(text: str) -> Any:
    """`loads_strict`, taking the C scanner's answer directly when it consumed the whole line."""
    try:
        value, end = _SCAN_ONCE(text, 0)
    except Exception:  # the scanner's own failures: the exact path says what is wrong
        return loads_strict(text)
    return value if end == len(text) else loads_strict(text)


# A JSON string without escapes or control characters: its text between the quotes is its value.
_PLAIN_STRING = r'"([^"\\\x00-\x1f]*)"'
_JSON_SPACE = "[ \t]*"  # JSON's whitespace inside a line (not Python's \s, which also takes Unicode spaces)


# A JSON integer, as `loads_strict` takes it (no leading zero, at most MAX_INT_DIGITS digits): its text is its value.
PLAIN_INT = rf"(-?(?:0|[1-9][0-9]{{0,{MAX_INT_DIGITS - 1}}}))"
# A value that is a plain string or an integer: its text (with the quotes of a string) is captured.
PLAIN_STRING_OR_INT = rf'("[^"\\\x00-\x1f]*"|-?(?:0|[1-9][0-9]{{0,{MAX_INT_DIGITS - 1}}}))'


@functools.lru_cache(maxsize=16)
def _flat_line_pattern(keys: tuple[str, ...], values: tuple[str, ...] | None = None) -> re.Pattern[str]:
    members = f"{_JSON_SPACE},{_JSON_SPACE}".join(
        f'"{re.escape(key)}"{_JSON_SPACE}:{_JSON_SPACE}{_PLAIN_STRING if values is None else values[i]}'
        for i, key in enumerate(keys)
    )
    # no space before the object: `loads_strict` refuses it, and the two readers must agree
    return re.compile(f"^\\{{{_JSON_SPACE}{members}{_JSON_SPACE}\\}}{_JSON_SPACE}$", re.MULTILINE)


def flat_string_rows(
    data: bytes, fields: tuple[str, ...], *, max_line_bytes: int = MAX_LINE_BYTES
) -> list[tuple[str, ...]] | None:
    """`flat_rows` where every value is a plain string."""
    return flat_rows(data, fields, max_line_bytes=max_line_bytes)


def flat_rows(
    data: bytes,
    fields: tuple[str, ...],
    value_patterns: dict[str, str] | None = None,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[tuple[str, ...]] | None:
    """The fast path for the usual prediction file: every line one flat object of exactly `fields`,
    in one key order, each value a plain string (or what `value_patterns` names for its field: PLAIN_INT,
    PLAIN_STRING_OR_INT, whose captured text is the JSON text). Returns the values per line in the order of
    `fields`, line i+1 in row i, or None when the file is anything else, and then `parse_jsonl` must read it.

    What is accepted here is exactly what `parse_jsonl` would accept with these values: valid UTF-8
    with LF ends and no BOM, no blank line but at the end, short lines, and lines matched whole by one
    pattern of distinct keys whose values hold no escape, quote or control character (so each value
    is its text and no key can repeat). Anything unusual goes the exact way, which names the problem.
    """
    if data.startswith(codecs.BOM_UTF8) or b"\r" in data or b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # the lines up to the trailing newlines, counted and measured in place: no list of them, no copy of the
    # text (a cap-sized file of millions of tiny lines stays within a few times its size in memory)
    end = len(text)
    while end and text[end - 1] == "\n":
        end -= 1
    if not end:
        return None
    n_lines = text.count("\n", 0, end) + 1
    newline = text.find("\n", 0, end)
    try:  # the first line tells the key order the writer used
        first = loads_strict(text[: end if newline < 0 else newline])
    except ValueError:
        return None
    if not isinstance(first, dict) or sorted(first) != sorted(fields):
        return None
    keys = tuple(first)
    patterns = None if value_patterns is None else tuple(value_patterns.get(k, _PLAIN_STRING) for k in keys)
    rows: list[tuple[str, ...]] = _flat_line_pattern(keys, patterns).findall(text, 0, end)
    # one match per line at most (values cannot hold a newline); as many matches as lines: every line matched
    if len(rows) != n_lines:
        return None
    if max(map(len, _split(text, "\n", end))) > max_line_bytes // 4:  # (UTF-8: at most 4 bytes a character)
        return None
    if keys != fields:
        rows = list(map(operator.itemgetter(*(keys.index(f) for f in fields)), rows))
    return rows


def json_type_name(value: Any) -> str:
    """How a JSON value is called in messages ("a string", "null", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    def write(handle: Any) -> None:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n")

    atomic_write(path, write)
