"""``check.py --self-check``: the check must find faults planted on purpose.

Two small pages are written to a scratch directory: ``faulty.html`` with one
fault of every kind the check looks for, and ``clean.html`` with the same
elements done right.  The check passes when it reports exactly the planted
kinds on the first page and nothing on the second, so a change to the
measuring script or the browser that blinds it fails the env instead of
passing every page.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: An image whose natural size is 400 x 20 px.
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="20">'
       '<rect width="400" height="20" fill="teal"/></svg>')

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ width: 600px; margin: 0 }} pre {{ overflow-x: auto }}</style></head>
<body id="top">{body}</body></html>"""

FAULTY = """
<pre>{long_line}</pre>
<div style="overflow-x: auto"><table><tr><td style="white-space: nowrap">{long_line}</td></tr>
</table></div>
<img src="no-such-image.png" alt="missing">
<img src="wide.svg" alt="squeezed" style="width: 200px">
<a href="no-such-page.html">a page that does not exist</a>
<a href="clean.html#no-such-anchor">an anchor that does not exist</a>
<a href="#nor-here">nor on this page</a>
"""

CLEAN = """
<pre id="here">short line</pre>
<div style="overflow-x: auto"><table><tr><td>short cell</td></tr></table></div>
<img src="wide.svg" alt="at its own size">
<a href="faulty.html">a page</a> <a href="clean.html#here">an anchor</a> <a href="#top">top</a>
<a href="https://example.org/">not followed: the check is offline</a>
"""

#: What the check must report on faulty.html, kind -> count (the missing
#: image is both an image that did not load and a file the page needs).
EXPECTED = Counter({"pre overflow": 1, "table overflow": 1, "image missing": 1,
                    "missing file": 1, "image scaled down": 1, "broken link": 3})


def write_pages(root: Path) -> None:
    long_line = "x" * 300
    (root / "wide.svg").write_text(SVG, encoding="utf-8")
    (root / "faulty.html").write_text(
        PAGE.format(title="faulty", body=FAULTY.format(long_line=long_line)), encoding="utf-8")
    (root / "clean.html").write_text(PAGE.format(title="clean", body=CLEAN), encoding="utf-8")


def run_self_check(browser: Any, check_tree: Callable[[Path, Any], list[Any]]) -> int:
    with tempfile.TemporaryDirectory(prefix="docs-browser-self-") as tmp:
        root = Path(tmp)
        write_pages(root)
        pages = {p.path.name: p for p in check_tree(root, browser)}
    found = Counter(kind for kind, _ in pages["faulty.html"].findings)
    ok = found == EXPECTED and not pages["clean.html"].findings
    for name, page in sorted(pages.items()):
        print(f"{name}: {len(page.findings)} findings")
        for kind, detail in page.findings:
            print(f"    {kind}: {detail}")
    if ok:
        print(f"self-check: every planted fault found ({sum(EXPECTED.values())}), "
              "none on the clean page")
        return 0
    print(f"self-check FAILED: expected {dict(EXPECTED)} on faulty.html and nothing on "
          f"clean.html; got {dict(found)} and {pages['clean.html'].findings}")
    return 1
