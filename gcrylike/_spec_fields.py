"""The type rule of every field of the spec classes, checked by register().

A field of the wrong type is refused at registration, where the plugin
author sees it, rather than accepted and failing later for every algorithm
(a priority ``"100"`` breaks the sorting of ``gcrylike list``; an
``iv_sizes`` of ``("8",)`` refuses every IV).  Every field of every spec
class has a rule here; tests/test_plugin_contract.py checks that none is
missing, so a new field cannot go unchecked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ._errors import InvalidArgument, InvalidType
from ._spec import Implementation


def _type_name(value: object) -> str:
    return type(value).__name__


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(least: int | None) -> Callable[[str, object], None]:
    def check(what: str, value: object) -> None:
        if not _is_int(value):
            raise InvalidType(f"{what} must be an int, not {_type_name(value)}")
        if least is not None and value < least:
            raise InvalidArgument(f"{what} must be at least {least}, not {value}")
    return check


def _text(allow_empty: bool) -> Callable[[str, object], None]:
    def check(what: str, value: object) -> None:
        if not isinstance(value, str):
            raise InvalidType(f"{what} must be a str, not {_type_name(value)}")
        if not value and not allow_empty:
            raise InvalidArgument(f"{what} must not be empty")
    return check


def _tuple_of(item: Callable[[str, object], None], what_items: str,
              allow_empty: bool) -> Callable[[str, object], None]:
    def check(what: str, value: object) -> None:
        if not isinstance(value, tuple):
            raise InvalidType(f"{what} must be a tuple of {what_items}, "
                              f"not {_type_name(value)}")
        if not value and not allow_empty:
            raise InvalidArgument(f"{what} must not be empty")
        for i, element in enumerate(value):
            item(f"{what}[{i}]", element)
    return check


def _bool(what: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidType(f"{what} must be a bool, not {_type_name(value)}")


def _hook(what: str, value: object) -> None:
    if not callable(value):
        raise InvalidType(f"{what} must be callable, not {_type_name(value)}")


def _optional_hook(what: str, value: object) -> None:
    if value is not None:
        _hook(what, value)


def _hook_dict(what: str, value: object) -> None:
    if not isinstance(value, dict):
        raise InvalidType(f"{what} must be a dict of callables, not {_type_name(value)}")
    for key, hook in value.items():
        _text(False)(f"{what} key", key)
        _hook(f"{what}[{key!r}]", hook)


def _implementation(what: str, value: object) -> None:
    if not isinstance(value, Implementation):
        raise InvalidType(f"{what} must be an Implementation, not {_type_name(value)}")
    _text(False)(f"{what}.driver", value.driver)
    _int(None)(f"{what} ({value.driver}).priority", value.priority)
    _text(True)(f"{what} ({value.driver}).description", value.description)
    # features: Implementation itself checks them (a frozenset of str)


_SIZE = _int(1)
_COUNT = _int(0)
_NAME = _text(False)

#: field name -> its check (hooks besides these: every field in a spec's
#: required_hooks must be callable, any other hook field None or callable)
FIELD_CHECKS: dict[str, Callable[[str, object], None]] = {
    "name": _NAME,
    "algo": _SIZE,
    "api_version": _int(None),  # which versions: the registry says
    "description": _text(True),
    "aliases": _tuple_of(_NAME, "names (str)", allow_empty=True),
    "key_sizes": _tuple_of(_SIZE, "positive ints", allow_empty=False),
    "iv_sizes": _tuple_of(_SIZE, "positive ints", allow_empty=True),
    "implementations": _tuple_of(_implementation, "Implementation records",
                                 allow_empty=False),
    "context_size": _COUNT,
    "block_size": _SIZE,
    "counter_block": _SIZE,
    "digest_size": _SIZE,
    "tag_size": _SIZE,
    "min_length": _COUNT,
    "max_tweak": _COUNT,
    "cipher": _NAME,
    "mode": _NAME,
    "reentrant": _bool,
    "extra_hooks": _hook_dict,
}

#: hook fields a spec may leave as None
OPTIONAL_HOOKS = frozenset({"setiv", "setctr", "locate", "seek", "oneshot"})


def check_fields(spec: Any) -> None:
    """Raise InvalidType (or InvalidArgument for a value out of range) for
    the first field of ``spec`` that breaks its rule."""
    label = spec.name if isinstance(spec.name, str) and spec.name else type(spec).__name__
    for f in dataclasses.fields(spec):
        value = getattr(spec, f.name)
        what = f"{label}: {f.name}"
        if f.name in spec.required_hooks:
            _hook(what, value)
        elif f.name in OPTIONAL_HOOKS:
            _optional_hook(what, value)
        else:
            FIELD_CHECKS[f.name](what, value)
