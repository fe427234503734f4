"""Sphinx configuration: the API reference from the docstrings, the tutorials executed at
build time, everything served from the build folder (no CDN at build or view time)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import api_pages  # noqa: E402  (docs/api_pages.py: one page per public name)
from myst_nb.core.render import NbElementRenderer  # noqa: E402

import graphpart  # noqa: E402

project = "graphpart"
author = "the graphpart authors"
release = version = graphpart.__version__
copyright = "2026, the graphpart authors"

extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon", "myst_nb"]

# --- the API reference: generated from the docstrings (numpydoc sections, via napoleon)
api_pages.write(HERE / "api")
autosummary_generate = True
autosummary_ignore_module_all = False
autodoc_default_options = {"members": True, "inherited-members": False, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"  # the docstrings give each type; the signature the rest
autodoc_typehints_format = "short"
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = True  # Attributes as fields: dataclass fields are not documented twice
napoleon_preprocess_types = False
autoclass_content = "class"

# --- the tutorials: notebooks/*.ipynb, executed while the site is built
TUTORIALS = HERE / "tutorials"
if TUTORIALS.exists():
    shutil.rmtree(TUTORIALS)
TUTORIALS.mkdir()
for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
    shutil.copy2(nb, TUTORIALS / nb.name)
nb_execution_mode = os.environ.get("GRAPHPART_DOCS_EXECUTE", "cache")
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# widgets show their static fallback: no widget JavaScript from a CDN, and no widget state in
# the pages (several MB of the views' scripts per tutorial that nothing would read)
nb_ipywidgets_js = {}


def _without_widget_state(finalise):
    def render_nb_finalise(self, metadata: dict) -> None:
        return finalise(self, {k: v for k, v in metadata.items() if k != "widgets"})

    return render_nb_finalise


NbElementRenderer.render_nb_finalise = _without_widget_state(NbElementRenderer.render_nb_finalise)


def _widget_stand_in(self, data) -> list:
    """Where JupyterLab draws an interactive view, the page says so (not the widget's repr)."""
    from docutils import nodes

    note = nodes.note()
    note += nodes.paragraph(
        text="An interactive view is drawn here when the notebook runs in JupyterLab "
        "(make lab): hover, click and zoom it there."
    )
    return [note]


NbElementRenderer.render_widget_view = _widget_stand_in

# --- offline: the theme's own static files only (no page has math, so no MathJax is linked)

# alabaster (Sphinx's own) with a shallow sidebar: a theme that lays the whole tree of ~600 API
# pages into every page's sidebar takes minutes to write them
html_theme = "alabaster"
html_title = f"graphpart {version}"
html_theme_options = {
    "description": "Partition graphs for distributed GNN training, and see what it does.",
    "fixed_sidebar": True,
    "page_width": "1200px",
    "sidebar_width": "240px",
    "font_family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "head_font_family": "system-ui, -apple-system, 'Segoe UI', sans-serif",
    "code_font_family": "ui-monospace, 'DejaVu Sans Mono', monospace",
}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_static_path: list[str] = []
html_show_sourcelink = False

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "api_pages.py", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["colon_fence"]
# an attribute name shared by two classes (``ids``, ``num_parts``) is an ambiguous reference,
# not a broken one
suppress_warnings = ["mystnb.unknown_mime_type", "ref.python"]
