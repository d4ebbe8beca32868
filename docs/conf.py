"""Sphinx configuration for the gcrylike documentation.

Built by ``tox -e docs`` (``sphinx-build -n -W --keep-going -b html`` and
``-b doctest``: every reference resolves, every Python sample runs) against
the *installed* gcrylike: nothing here adds the source tree to ``sys.path``,
whose ``gcrylike/`` has no compiled extensions.
"""

import inspect
import os
import sys

import gcrylike

_HERE = os.path.dirname(os.path.abspath(__file__))
# docs/_ext: this documentation's own Sphinx extensions (not the package)
sys.path.insert(0, os.path.join(_HERE, "_ext"))

project = "gcrylike"
author = "the gcrylike authors"
copyright = "the gcrylike authors"
version = release = gcrylike.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "viewcode_backlinks",
    "readme_blocks",
]

exclude_patterns = ["_build", "examples", "_intersphinx", "_ext", "_static"]
# Every cross-reference must resolve (tox -e docs passes -n too).
nitpicky = True
root_doc = "index"
language = "en"

# -- autodoc ------------------------------------------------------------------
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_class_signature = "mixed"
# An exception class without its own docstring must not show GcryError's.
autodoc_inherit_docstrings = False
# The public API lives in private modules and is re-exported from gcrylike;
# show ``CipherHandle`` rather than ``gcrylike._handle.CipherHandle``.
python_use_unqualified_type_names = True
add_module_names = True

# -- intersphinx ----------------------------------------------------------------
# The docs build offline: a small inventory of the Python objects they name
# (_intersphinx/make_python_inv.py writes it) is read first; the full one on
# docs.python.org only if that file is missing.  Links point at
# docs.python.org either way.
intersphinx_mapping = {
    "python": ("https://docs.python.org/3",
               (os.path.join(_HERE, "_intersphinx", "python3.inv"), None)),
}
intersphinx_timeout = 5

# -- doctest --------------------------------------------------------------------
# Samples are ``testcode`` blocks (run, output unchecked unless a
# ``testoutput`` follows) and ``doctest`` blocks; ELLIPSIS lets machine-
# dependent output (drivers, CPU features) be elided.
doctest_global_setup = """
import os
import gcrylike
import gcrylike.testing
from gcrylike import *


def _salsa208_standin(selftest=None):
    # The plugin pages' samples open "salsa20/8", the example plugin, which
    # the docs build does not install: this is the built-in Salsa20 code
    # with 8 rounds under the plugin's names, ids and driver names.
    import dataclasses
    from gcrylike import _registry
    from gcrylike._errors import check
    from gcrylike.ciphers.salsa20 import lib

    def setkey(ctx, key, impl):
        check(lib.gcry_salsa20_setkey(ctx, key, len(key), 8, impl.token, 0), "SALSA208")

    base = _registry.lookup("salsa20")
    impls = tuple(dataclasses.replace(i, driver=i.driver.replace("salsa20", "salsa208"))
                  for i in base.implementations)
    return dataclasses.replace(base, name="SALSA208", algo=40001, aliases=("salsa20/8",),
                               implementations=impls, setkey=setkey,
                               selftest=selftest or (lambda spec, impl: None))
"""
doctest_test_doctest_blocks = "default"

# -- HTML ---------------------------------------------------------------------
# furo: a theme for technical content whose tables scroll inside their own
# box; _static/wide.css widens its text column for our code (see there).
html_theme = "furo"
html_title = f"gcrylike {release}"
html_static_path = ["_static"]
html_css_files = ["wide.css"]


# -- constructor parameters ---------------------------------------------------
# With autodoc_typehints = "description" every class gets a "Parameters" list
# built from its __init__.  Integrators never construct handles, result
# records or exceptions, so keep that list only for the classes plugin authors
# or integrators build themselves (specs, the one-shot AEADs and secretbox,
# Adiantum), and
# describe the other classes' attributes in the pages.
_KEEP_CONSTRUCTOR_PARAMETERS = {
    # plugin authors build these
    "gcrylike.CipherSpec", "gcrylike.MacSpec", "gcrylike.AeadSpec",
    "gcrylike.BlockCipherSpec", "gcrylike.TweakableCipherSpec", "gcrylike.SecretBoxSpec",
    "gcrylike.Implementation", "gcrylike.Context",
    # integrators construct these keyed objects themselves
    "gcrylike.ChaCha20Poly1305", "gcrylike.XChaCha20Poly1305", "gcrylike.SecretBox",
    "gcrylike.Adiantum",
}


def _drop_constructor_parameters(app, domain, objtype, contentnode):
    if domain != "py" or objtype not in ("class", "exception"):
        return
    try:
        sig = contentnode.parent[0]
        fullname = f"{sig['module']}.{sig['fullname']}" if sig["module"] else sig["fullname"]
    except (IndexError, KeyError, TypeError):
        return
    if fullname in _KEEP_CONSTRUCTOR_PARAMETERS:
        return
    document = getattr(app.env, "current_document", None)  # Sphinx >= 8.2
    annotations = getattr(document, "autodoc_annotations", None)
    if annotations is None:
        annotations = app.env.temp_data.get("annotations", {})
    annotations.pop(fullname, None)


# -- data without a docstring --------------------------------------------------
# autodoc falls back to the docstring of the value's type for module data, so
# ``__version__`` would be described by ``str.__doc__``; the page says it.
def _drop_type_docstrings(app, what, name, obj, options, lines):
    if what != "data" or type(obj).__module__ != "builtins":
        return
    type_doc = " ".join((type(obj).__doc__ or "").split())
    if type_doc and " ".join(" ".join(lines).split()) == type_doc:
        lines.clear()


# -- private module paths -------------------------------------------------------
# Type hints name a class where it is defined (gcrylike._typing.Encoder);
# the docs document it where it is exported (gcrylike.Encoder).
def _resolve_public_name(app, env, node, contnode):
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("gcrylike._"):
        return None
    public = "gcrylike." + target.rsplit(".", 1)[1]
    return env.get_domain("py").resolve_xref(env, node["refdoc"], app.builder,
                                             node["reftype"], public, node, contnode)


# -- data methods written in C ------------------------------------------------
# With the extension, the handles' data methods are C method descriptors
# (gcrylike._fastcall.native_method): their signature (``__text_signature__``)
# has no annotations, so record those of the general Python method they stand
# for (gcrylike._keyed.NATIVE_METHODS), as autodoc does for any method.
def _data_method_typehints(app, what, name, obj, options, args, retann):
    from sphinx.ext.autodoc.typehints import record_typehints

    from gcrylike import _keyed

    owner = getattr(obj, "__objclass__", None)
    if what == "method" and inspect.ismethoddescriptor(obj) and owner is not None:
        general = next((g for (cls, n), g in _keyed.NATIVE_METHODS.items()
                        if n == obj.__name__ and issubclass(owner, cls)), None)
        if general is not None:
            record_typehints(app, what, name, general, options, args, retann)


def setup(app):
    app.connect("autodoc-process-signature", _data_method_typehints)
    app.connect("missing-reference", _resolve_public_name)
    # Before autodoc's own handler (priority 500) merges the annotations.
    app.connect("object-description-transform", _drop_constructor_parameters, priority=400)
    app.connect("autodoc-process-docstring", _drop_type_docstrings)
