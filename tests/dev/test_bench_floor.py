"""The benches' GEMM floor (bench/step.py, imported by compare, reader_step, strokes_step and
synthesis_step) runs and computes the products it claims to time: its checksum (each product's first
element, the recurrent products' per step and chunk) equals NumPy's on the same operands."""
import numpy as np
import pytest

from bench.step import gemm_floor
from lnrnn.kernels.cpu.threads import chunk_bounds, clamp_chunks


@pytest.mark.parametrize("nchunks", [1, 3])
def test_gemm_floor_checksum_equals_numpy(nchunks):
    rng = np.random.default_rng(0)
    T, B, I, H = 4, 7, 3, 5
    G = 4 * H
    x = rng.standard_normal((T, B, I))
    Wx = rng.standard_normal((I, G))
    Wh = rng.standard_normal((H, G))
    hs = rng.standard_normal((T, B, H))
    dHW = rng.standard_normal((T, B, G))
    want = (x.reshape(T * B, I) @ Wx)[0, 0]
    nch = clamp_chunks(nchunks, B)
    for q in range(nch):
        lo, hi = chunk_bounds(B, nch, q)
        want += sum((hs[t, lo:hi] @ Wh)[0, 0] for t in range(T))
        want += sum((dHW[t, lo:hi] @ Wh.T)[0, 0] for t in range(T))
    d2 = dHW.reshape(T * B, G)
    want += (x.reshape(T * B, I).T @ d2)[0, 0] + (d2 @ Wx.T)[0, 0] + (hs.reshape(T * B, H).T @ d2)[0, 0]
    assert gemm_floor(x, Wx, Wh, hs, dHW, nchunks) == pytest.approx(want, rel=1e-12)
