"""``.. readme-code:: NAME``: show a code block of the README in a page.

The README is what a visitor of the repository reads first, so it holds the
quick-start commands; the docs' front page shows the same blocks rather than
a copy that drifts.  A block is marked in README.md by an HTML comment (which
GitHub does not show) on the line before its fence::

    <!-- docs: quick-start -->
    ```sh
    python3 -m pip install .
    ```

The fence's language is kept.  A name that is not in the README fails the
build, and editing the README rebuilds the pages that show its blocks.
"""

from __future__ import annotations

import os
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

#: The README, relative to the Sphinx source directory (docs/).
README = os.path.join(os.pardir, "README.md")


def fenced_block(text: str, name: str) -> tuple[str, str] | None:
    """(language, code) of the fenced block after ``<!-- docs: name -->``."""
    lines = text.splitlines()
    marker = f"<!-- docs: {name} -->"
    for i, line in enumerate(lines[:-1]):
        fence = lines[i + 1].strip()
        if line.strip() == marker and fence.startswith("```"):
            body = []
            for code in lines[i + 2:]:
                if code.strip() == "```":
                    return fence[3:].strip() or "text", "\n".join(body)
                body.append(code)
    return None


class ReadmeCode(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        path = os.path.normpath(os.path.join(self.env.srcdir, README))
        self.env.note_dependency(path)
        with open(path, encoding="utf-8") as f:
            found = fenced_block(f.read(), self.arguments[0])
        if found is None:
            raise self.error(f"README.md has no block marked <!-- docs: {self.arguments[0]} -->")
        language, code = found
        block = nodes.literal_block(code, code, language=language)
        self.set_source_info(block)
        return [block]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("readme-code", ReadmeCode)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
