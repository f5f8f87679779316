"""What the Python front ends check of the arrays they pass to ``gpumemsim.run`` before they
pass them on (``gpumemsim.run`` itself makes one buffer of one array given twice, and refuses
arrays that overlap in part; the front ends check first, to name the arguments, or because
their copies would hide the overlap)."""

from typing import List, Optional, Sequence, Tuple

import numpy as np


def partial_overlap(arrays: Sequence[np.ndarray]) -> Optional[Tuple[int, int]]:
    """The indices of the first two arrays that share part of their memory but are not the
    same memory (one array given twice is one buffer; arrays overlapping in part cannot be
    given: each buffer is an allocation of its own, so the kernel would not see one through
    the other as on a GPU); ``None`` when there are none."""
    span: List[Tuple[int, int]] = [(a.__array_interface__["data"][0], a.nbytes)
                                   for a in arrays]
    for i, a in enumerate(arrays):
        for j in range(i + 1, len(arrays)):
            if span[i] != span[j] and np.shares_memory(a, arrays[j]):
                return i, j
    return None
