"""Which datasets come from Debian packages, and whether they are on this machine."""

from __future__ import annotations

from .meshes import METIS_GRAPHS, metis_graphs_dir
from .wordnet import wordnet_dir

__all__ = ["DEBIAN_PACKAGES", "missing_package"]

#: Dataset name -> the Debian package that provides its files.
DEBIAN_PACKAGES = {"wordnet": "wordnet-base", **{name: "libmetis-doc" for name in METIS_GRAPHS}}


def missing_package(name: str) -> str | None:
    """The Debian package to install for dataset ``name``, or ``None`` when its files are here.

    Parameters
    ----------
    name : str
        A dataset name, as :func:`~graphpart.datasets.load` takes it.

    Returns
    -------
    str or None
        ``"wordnet-base"`` or ``"libmetis-doc"`` when the dataset needs that package and its
        file is missing (``data.noun`` under :func:`~graphpart.datasets.wordnet.wordnet_dir`,
        or the example under :func:`~graphpart.datasets.meshes.metis_graphs_dir`); ``None``
        when it is present or the dataset needs no package (unknown names included).

    Examples
    --------
    >>> missing_package("karate_club") is None   # ships with graphpart (networkx)
    True
    >>> missing_package("4elt") in (None, "libmetis-doc")
    True
    """
    if name not in DEBIAN_PACKAGES:
        return None
    if name == "wordnet":
        present = (wordnet_dir() / "data.noun").is_file()
    else:
        present = (metis_graphs_dir() / METIS_GRAPHS[name]).is_file()
    return None if present else DEBIAN_PACKAGES[name]
