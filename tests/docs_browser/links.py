"""Internal links and #anchors across the rendered pages.

A link is internal when it resolves to a file:// URL (every page is opened
from the build directory): its file must exist, and an #anchor must be an
id (or <a name>) of the target page as the browser rendered it.  Links to
other schemes (https, mailto) are not followed: the check runs offline.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit


def local_path(url: str) -> tuple[str, str] | None:
    """(file path, decoded fragment) of a file:// URL, else None."""
    parts = urlsplit(url)
    if parts.scheme != "file":
        return None
    return unquote(parts.path), unquote(parts.fragment)


def broken(url: str, ids_by_page: dict[str, set[str]]) -> str | None:
    """Why ``url`` is broken, or None when it is fine or not internal.

    ``ids_by_page`` maps the path of every rendered page to its ids.
    """
    target = local_path(url)
    if target is None:
        return None
    path, fragment = target
    if not os.path.exists(path):
        return "no such file"
    # "#" alone and text fragments (#:~:text=) name no element
    if not fragment or fragment.startswith(":~:"):
        return None
    ids = ids_by_page.get(os.path.normpath(path))
    if ids is None:  # a file that is not a page (a source text, an image)
        return None
    return None if fragment in ids else f"no id {fragment!r} on that page"
