"""Sequences of different lengths in one batch: the ``lengths`` argument of the BatchNorm ops.

Design note: a batch may hold right-padded sequences. ``lengths`` (B,) int64, 0 <= lengths[b] <= T,
says that row b is active at step t iff t < lengths[b]; ``None`` means every row is active at every
step. Only the BatchNorm ops need it (their statistics couple the rows of a step); the plain and LN
cells never mix rows, so a padded step there only needs a zero upstream gradient. The kernels take
``lengths`` as an int64 array always: ``None`` becomes lengths = T for every row, for which the masked
loops do exactly the arithmetic of the unmasked ones (counts equal B), so results stay bit for bit
what they were. This module is plain NumPy, shared by the CPU and CUDA twins.
"""
import numpy as np


def as_lengths(lengths, T, B):
    """lengths (B,) as a C-contiguous int64 host array (None: all T), checked: ValueError otherwise."""
    if lengths is None:
        return np.full(B, T, dtype=np.int64)
    arr = np.asarray(lengths)
    if arr.shape != (B,) or arr.dtype.kind not in "iu":
        raise ValueError(f"lengths must be (B,) = ({B},) integers, got shape {arr.shape} of {arr.dtype}")
    if B and (arr.min() < 0 or arr.max() > T):
        raise ValueError(f"lengths must lie in [0, T] = [0, {T}], got {arr.min()}..{arr.max()}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def step_mask(lengths, T, B):
    """(T,B) bool: True where row b is active at step t (t < lengths[b])."""
    return np.arange(T)[:, None] < as_lengths(lengths, T, B)[None, :]
