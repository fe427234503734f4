"""Check a built site: every internal link and resource resolves (file and #anchor), and no page
loads anything from another host (scripts, styles, images, frames: the site works offline).

``python docs/check_site.py docs/_build/html`` prints each problem and exits 1 if any.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: Tags whose URL is loaded with the page (not followed by a click).
LOADED = {("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src"), ("source", "src")}
#: The ``rel`` values of a ``<link>`` the browser fetches.
FETCHED = {"stylesheet", "preload", "modulepreload", "icon", "manifest", "prefetch"}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.urls: list[tuple[str, str, str]] = []  # (tag, attribute, url)
        self.loaded: set[str] = set()  # urls the browser fetches with the page

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for attr in ("href", "src"):
            if attrs.get(attr) is not None:
                self.urls.append((tag, attr, attrs[attr]))
                rel = (attrs.get("rel") or "").split()
                if (tag, attr) in LOADED and not (tag == "link" and not set(rel) & FETCHED):
                    self.loaded.add(attrs[attr])


def problems(site: Path) -> list[str]:
    """What is broken in the site under ``site``: one line per problem."""
    pages = {p: _parse(p) for p in site.rglob("*.html")}
    out = []
    for page, parsed in pages.items():
        rel = page.relative_to(site)
        for tag, attr, url in parsed.urls:
            parts = urlsplit(url)
            if parts.scheme in ("mailto", "data", "javascript"):
                continue
            if parts.scheme or parts.netloc:
                if url in parsed.loaded:
                    out.append(f"{rel}: <{tag} {attr}={url!r}> loads from another host")
                continue
            target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                out.append(f"{rel}: <{tag} {attr}={url!r}> points at a missing file")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    out.append(f"{rel}: <{tag} {attr}={url!r}> points at a missing anchor")
    return out


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


if __name__ == "__main__":
    found = problems(Path(sys.argv[1]).resolve())
    print("\n".join(found) or "every internal link resolves; nothing loads from another host")
    sys.exit(1 if found else 0)
