"""One computation over two splits of the batch's rows (1, 2 or 3 chunks of rows, batches of 3 rather than 500):
the same bits where the per-step product keeps its bits over any split (rgemm: blas.REC_SPLIT_EXACT), else
equal within a few roundings (MKL's packed GEMM and np.dot choose their code by the rows they get). A host whose
measurement chooses the BLAS runs the same tests; they hold the split to bits wherever the product allows it."""
import numpy as np

from lnrnn.kernels.cpu.blas import REC_SPLIT_EXACT

TOL = {np.dtype(np.float64): 1e-12, np.dtype(np.float32): 1e-5}  # relative to the larger array's largest entry


def same_split(a, b):
    """a, b: arrays of one computation over two splits of the rows -> whether they agree: the same shape and
    bits where the product keeps them over any split, else within TOL of their dtype."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if REC_SPLIT_EXACT or a.dtype not in TOL:
        return bool(np.array_equal(a, b))
    if not (np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(np.isinf(a), np.isinf(b))):
        return False
    ok = np.isfinite(a)
    scale = max(1.0, float(np.max(np.abs(a[ok]), initial=0.0)), float(np.max(np.abs(b[ok]), initial=0.0)))
    return bool(np.all(np.abs(a[ok] - b[ok]) <= TOL[a.dtype] * scale) and np.array_equal(a[~ok], b[~ok]))
