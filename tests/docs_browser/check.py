"""Render every page of a built HTML tree in headless Chromium and fail on
what a reader would hit: a code block or table wider than its box at the
window width (1400 px by default), an image missing or drawn smaller than
its natural size, a broken internal link or #anchor (source-view pages under
``_modules/`` included).

    python tests/docs_browser/check.py BUILD/html        # the docs
    python tests/docs_browser/check.py --self-check      # planted faults

Prints one line per page (and one per finding under it), then the total;
exits 1 on any finding, 2 when the browser is missing or fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cdp import Browser, BrowserError, find_chromium  # noqa: E402
from links import broken  # noqa: E402

MEASURE = (HERE / "measure.js").read_text(encoding="utf-8")


@dataclass
class Page:
    path: Path
    blocks: dict[str, int] = field(default_factory=dict)
    images: int = 0
    links: list[str] = field(default_factory=list)
    loads: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    findings: list[tuple[str, str]] = field(default_factory=list)


def render(browser: Browser, path: Path) -> Page:
    browser.open(path.as_uri())
    got = browser.evaluate(MEASURE)
    return Page(path, got["blocks"], got["images"], got["links"], got["loads"],
                set(got["ids"]), [(f["kind"], f["detail"]) for f in got["findings"]])


def check_links(pages: list[Page]) -> None:
    """Add each page's broken links and loads to its findings."""
    ids = {os.path.normpath(p.path): p.ids for p in pages}
    for page in pages:
        for kind, urls in (("broken link", page.links), ("missing file", page.loads)):
            for url in urls:
                why = broken(url, ids)
                if why:
                    page.findings.append((kind, f"{_relative(url, page.path)}: {why}"))


def _relative(url: str, page: Path) -> str:
    """A file:// URL as the page's own relative href, for the report."""
    if not url.startswith("file://"):
        return url
    return os.path.relpath(url[len("file://"):], page.parent)


#: Folders of a Sphinx build that hold no pages (a theme may put template
#: fragments ending in .html under _static).
NOT_PAGES = ("_static", "_sources", "_images")


def check_tree(root: Path, browser: Browser) -> list[Page]:
    paths = [p for p in sorted(root.rglob("*.html"))
             if p.relative_to(root).parts[0] not in NOT_PAGES]
    pages = [render(browser, p) for p in paths]
    check_links(pages)
    return pages


def report(pages: list[Page], root: Path, width: int, seconds: float) -> int:
    total = sum(len(p.findings) for p in pages)
    for p in pages:
        status = "FAIL" if p.findings else "ok"
        print(f"{status:>4}  {p.path.relative_to(root)}: {p.blocks.get('pre', 0)} code blocks, "
              f"{p.blocks.get('table', 0)} tables, {p.images} images, {len(p.links)} links")
        for kind, detail in p.findings:
            print(f"        {kind}: {detail}")
    print(f"docs-browser: {len(pages)} pages at {width} px, "
          f"{sum(p.blocks.get('pre', 0) for p in pages)} code blocks, "
          f"{sum(p.blocks.get('table', 0) for p in pages)} tables, "
          f"{sum(p.images for p in pages)} images, {sum(len(p.links) for p in pages)} links: "
          f"{total} findings ({seconds:.1f} s)")
    return 1 if total else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("html", nargs="?", type=Path, help="the HTML build directory")
    ap.add_argument("--width", type=int, default=1400, help="window width in CSS px")
    ap.add_argument("--height", type=int, default=900, help="window height in CSS px")
    ap.add_argument("--self-check", action="store_true",
                    help="check planted faults instead: fails unless every one is found")
    args = ap.parse_args(argv)
    if not args.self_check and args.html is None:
        ap.error("give the HTML build directory, or --self-check")
    binary = find_chromium()
    if binary is None:
        print("docs-browser: no chromium found (apt-get install chromium, or set CHROMIUM)",
              file=sys.stderr)
        return 2
    started = time.monotonic()
    try:
        with Browser(binary) as browser:
            browser.set_viewport(args.width, args.height)
            if args.self_check:
                from selfcheck import run_self_check
                return run_self_check(browser, check_tree)
            pages = check_tree(args.html.resolve(), browser)
    except BrowserError as exc:
        print(f"docs-browser: {exc}", file=sys.stderr)
        return 2
    return report(pages, args.html.resolve(), args.width, time.monotonic() - started)


if __name__ == "__main__":
    sys.exit(main())
