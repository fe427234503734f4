"""Old import paths of modules that moved into packages keep working, with a warning.

``import graphpart.structure`` loads :mod:`graphpart.metrics.structure` and registers it under
both names, so ``graphpart.structure.cut_matrix is graphpart.metrics.structure.cut_matrix``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import warnings
from collections.abc import Mapping

__all__ = ["MovedModules"]


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A finder that answers old module paths with the modules' new homes.

    Parameters
    ----------
    moved : Mapping[str, str]
        Old dotted path -> new dotted path.

    Examples
    --------
    >>> import sys
    >>> finder = MovedModules({"graphpart.old_index": "graphpart.index"})
    >>> sys.meta_path.append(finder)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     import graphpart.old_index
    >>> graphpart.old_index is sys.modules["graphpart.index"]
    True
    >>> str(caught[0].message)
    'graphpart.old_index moved to graphpart.index; import it from there'
    >>> sys.meta_path.remove(finder); del sys.modules["graphpart.old_index"]
    """

    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = dict(moved)

    def find_spec(self, fullname, path=None, target=None):  # noqa: D102 (importlib's protocol)
        if fullname not in self.moved:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):  # noqa: D102
        new = self.moved[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; import it from there", DeprecationWarning, stacklevel=2
        )
        return importlib.import_module(new)

    def exec_module(self, module) -> None:  # noqa: D102 (the new module ran already)
        return None
