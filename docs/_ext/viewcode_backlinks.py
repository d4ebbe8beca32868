"""Correct the "[docs]" links of viewcode's source pages.

viewcode links each object of a source page back to ``<page>#<prefix>.<name>``
with one ``<prefix>`` per source file: the module name under which the first
of its objects was documented.  Ours documents the objects of one file under
two names: ``gcrylike.build`` holds ``gcrylike.get_include`` (re-exported)
and ``gcrylike.build.make_ffi``; ``gcrylike.selftests.runner`` holds
``gcrylike.SelftestReport`` and ``gcrylike.selftests.stream_selftest``.  So
the links of the second kind pointed to ids that do not exist (the browser
check, tests/docs_browser/, found them).  This records the id each object
really got, per (source module, name, page), and rewrites those links when
the source page is written.
"""

from __future__ import annotations

import html
import importlib
import re
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

#: viewcode's markup of one object on a source page (sphinx/ext/viewcode.py)
_BLOCK = re.compile(r'(<div class="viewcode-block" id="([^"]+)">\s*'
                    r'<a class="viewcode-back" href=")([^"#]*)#([^"]*)(")')


def _source_module(modname: str, fullname: str) -> str | None:
    """The module that defines ``modname.fullname``, as viewcode finds it."""
    try:
        value: Any = importlib.import_module(modname)
        for attr in fullname.split("."):
            value = getattr(value, attr)
    except (ImportError, AttributeError):
        return None
    return getattr(value, "__module__", None)


def _anchors(env: Any) -> dict[tuple[str, str, str], str]:
    """(source module, name in it, docname) -> the id the object got there."""
    if not hasattr(env, "gcrylike_viewcode_anchors"):
        env.gcrylike_viewcode_anchors = {}
    return env.gcrylike_viewcode_anchors


def record(app: Sphinx, doctree: nodes.document) -> None:
    docname = app.env.docname
    anchors = _anchors(app.env)
    for sig in doctree.findall(addnodes.desc_signature):
        if sig.parent.get("domain") != "py" or not sig["ids"]:
            continue
        modname, fullname = sig.get("module"), sig.get("fullname")
        source = modname and fullname and _source_module(modname, fullname)
        if source:
            anchors.setdefault((source, fullname, docname), sig["ids"][0])


def purge(app: Sphinx, env: Any, docname: str) -> None:
    anchors = _anchors(env)
    for key in [k for k in anchors if k[2] == docname]:
        del anchors[key]


def merge(app: Sphinx, env: Any, docnames: set[str], other: Any) -> None:
    _anchors(env).update(_anchors(other))


def rewrite(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
            doctree: Any) -> None:
    if not pagename.startswith("_modules/") or "body" not in context:
        return
    source = pagename[len("_modules/"):].replace("/", ".")
    anchors = _anchors(app.env)
    # the relative URI of each page that documents an object of this file
    pages = {app.builder.get_relative_uri(pagename, doc): doc
             for (mod, _name, doc) in anchors if mod == source}

    def fix(m: re.Match[str]) -> str:
        name, uri = html.unescape(m[2]), m[3]
        anchor = anchors.get((source, name, pages.get(uri, "")))
        return m[0] if anchor is None else f"{m[1]}{uri}#{anchor}{m[5]}"

    context["body"] = _BLOCK.sub(fix, context["body"])


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.viewcode")
    app.connect("doctree-read", record)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("html-page-context", rewrite)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
