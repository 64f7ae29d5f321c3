"""lnrnn/kernels/cpu/threads.py's chunk_bounds by value: n rows split into nchunks chunks, n not a multiple
of nchunks included, cover 0..n once, in order, each chunk floor or ceil of n / nchunks rows, as the
floor((k n) / nchunks) definition gives."""
from lnrnn.kernels.cpu.threads import chunk_bounds


def test_chunks_cover_every_row_once_in_nearly_equal_parts():
    for n in range(0, 23):
        for nch in range(1, 9):
            bounds = [chunk_bounds(n, nch, k) for k in range(nch)]
            assert bounds == [((k * n) // nch, ((k + 1) * n) // nch) for k in range(nch)]
            assert bounds[0][0] == 0 and bounds[-1][1] == n
            assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
            assert {hi - lo for lo, hi in bounds} <= {n // nch, -(-n // nch)}
    assert [chunk_bounds(10, 4, k) for k in range(4)] == [(0, 2), (2, 5), (5, 7), (7, 10)]
