"""YAML reading that remembers the line of every mapping and list, so pack errors can name it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


class LineDict(dict):
    """A mapping from YAML with the line it starts on and the line of each key."""

    __slots__ = ("line", "key_lines")

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    __slots__ = ("line", "item_lines")

    def line_of(self, index: int) -> int:
        try:
            return self.item_lines[index]
        except IndexError:
            return self.line


try:  # the C loader when PyYAML was built with libyaml, the pure one otherwise
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class _LineLoader(_Base):  # type: ignore[misc, valid-type]
    pass


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def read_yaml(path: Path, display: str) -> Any:
    """Parse a YAML file; a syntax error becomes a PackError with the line."""
    from .errors import PackError

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PackError(display, None, f"cannot read the file: {exc.strerror}") from exc
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise PackError(display, line, f"not valid YAML: {exc.problem or exc}") from exc
    except yaml.YAMLError as exc:
        raise PackError(display, None, f"not valid YAML: {exc}") from exc
