"""Type aliases shared across graphpart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Union

import numpy as np
import torch

__all__ = [
    "IdArray",
    "TensorLike",
    "Seed",
    "CanonicalEType",
    "ETypeLike",
    "DataDict",
    "BalanceSpec",
]

#: Anything accepted where an array of integer IDs is taken.
IdArray = Union[torch.Tensor, np.ndarray, Sequence[int]]
#: Anything accepted where a data tensor is taken (converted with ``torch.as_tensor``).
TensorLike = Union[torch.Tensor, np.ndarray, Sequence]
#: A seed: an int, a NumPy generator, or ``None`` for fresh entropy.
Seed = Union[int, np.random.Generator, None]
#: A canonical edge type ``(src_type, relation, dst_type)``.
CanonicalEType = tuple[str, str, str]
#: An edge type as users may write it: canonical tuple, ``"src:rel:dst"`` or a unique relation.
ETypeLike = Union[CanonicalEType, str]
#: Named data tensors of one node or edge type.
DataDict = Mapping[str, TensorLike]
#: What ``balance_ntypes`` takes: a node data field name, several names (a list, or one
#: comma-separated str), classes per node (an array over homogeneous ids, or a dict by node
#: type), or ``None``.
BalanceSpec = Union[None, str, Sequence[str], np.ndarray, torch.Tensor, Mapping[str, TensorLike]]
