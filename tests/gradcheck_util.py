"""Finite-difference judge for every hand-written backward.

    num = numeric_grad(lambda: loss(), arr)       # perturbs arr in place, restores it
    assert rel_error(analytic, num) <= 1e-6

``f`` takes no arguments and returns a scalar computed from ``arr`` (closed over); work in float64.
"""
import numpy as np

TINY = 1e-12  # floor of the relative-error denominator (both gradients ~0 -> absolute error)


def numeric_grad(f, arr, eps=1e-6, idx=None, order=2):
    """Central differences of scalar f() w.r.t. arr, element by element.

    order=2: (f(a+eps) - f(a-eps)) / 2eps, error O(eps^2) + rounding O(1e-16 |f| / eps).
    order=4: (8(f(a+eps) - f(a-eps)) - (f(a+2eps) - f(a-2eps))) / 12eps, error O(eps^4): lets eps be
             ~3e-5, so rounding noise drops ~30x (useful where gradients are small).
    idx: None for every element (returns an array shaped like arr), or a sequence of flat indices
    (returns a 1-D array of the derivatives at those indices, in that order).
    """
    assert order in (2, 4), "order must be 2 or 4"
    flat = arr.reshape(-1)  # a view: arr must be contiguous
    assert np.shares_memory(flat, arr), "numeric_grad needs a contiguous array"
    which = range(flat.size) if idx is None else idx
    out = np.empty(len(which), dtype=np.float64)
    for n, k in enumerate(which):
        old = flat[k]
        flat[k] = old + eps
        fp = float(f())
        flat[k] = old - eps
        fm = float(f())
        if order == 4:
            flat[k] = old + 2 * eps
            fp2 = float(f())
            flat[k] = old - 2 * eps
            fm2 = float(f())
            out[n] = (8 * (fp - fm) - (fp2 - fm2)) / (12 * eps)
        else:
            out[n] = (fp - fm) / (2 * eps)
        flat[k] = old
    return out.reshape(arr.shape) if idx is None else out


def rel_error(a, n):
    """max over elements of |a - n| / max(|a| + |n|, TINY)."""
    a = np.asarray(a, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    return float(np.max(np.abs(a - n) / np.maximum(np.abs(a) + np.abs(n), TINY), initial=0.0))


def sample_idx(arr, k, rng):
    """All flat indices of arr if it has at most k elements, else k distinct random ones (sorted)."""
    if arr.size <= k:
        return np.arange(arr.size)
    return np.sort(rng.choice(arr.size, size=k, replace=False))
