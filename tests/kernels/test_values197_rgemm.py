"""rgemm (lnrnn/kernels/cpu/rgemm.py) against definitions worked out here: pack's refusal of what is not a 2-D
float matrix, word for word; the packed panels element by element against Wp[p, k, jj] = Wh[k, p*NR + jj] and
zero past G (on memory that held NaN the call before); rgemm_rowstats' C, row sums and sums of squares against
float64 np.dot and its sums on ragged b, K, G; fetch_schedule against a walk written out from its docstring
(the widest spacing with room, the smallest share, the regions in order) over a grid of plans, tile counts and
k lengths; rgemm_fetch with a plan of real addresses equal to np.dot."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.rgemm import MR, fetch_schedule, nr_of, pack, packed, rgemm_fetch, rgemm_rowstats
from test_values106_rgemm import DTYPES, problem, tol

@pytest.mark.parametrize("Wh", [np.arange(6, dtype=np.int64).reshape(2, 3), np.ones(4, np.float32),
                                np.ones((2, 2, 2))])
def test_pack_refuses_what_is_not_a_2d_float_matrix(Wh):
    with pytest.raises(ValueError) as e:
        pack(Wh)
    assert str(e.value) == f"pack takes a 2-D float32 or float64 Wh, not {Wh.dtype} of shape {Wh.shape}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_packed_panels_by_definition_with_zero_columns_past_g(dtype):
    """NR = two vectors of the tile; G of 1, 7, 33, 65 columns; the panel buffer of the call before (the same
    size) held NaN everywhere, so a column past G left unwritten shows."""
    NR = nr_of(dtype)
    assert NR * np.dtype(dtype).itemsize in (64, 128)
    H = 3
    for G in (1, 7, 33, 65):
        P = -(-G // NR)
        for _ in range(3):
            dirty = packed(np.full((H, P * NR), np.nan, dtype), NR)  # (P,H,NR) all NaN, then freed
            del dirty
            Wh = np.random.default_rng(G).standard_normal((H, G)).astype(dtype)
            Wp = pack(Wh)
            assert Wp.shape == (P, H, NR) and Wp.dtype == dtype
            want = np.zeros((P, H, NR), dtype)
            for p in range(P):
                for k in range(H):
                    for jj in range(NR):
                        if p * NR + jj < G:
                            want[p, k, jj] = Wh[k, p * NR + jj]
            assert np.array_equal(Wp, want), G


@pytest.mark.parametrize("dtype", DTYPES)
def test_rowstats_against_np_dot_and_its_row_sums(dtype):
    """Full tiles and edges (b of 1, MR and 2 MR + 3; G of 7, NR, 2 NR + 1; K of 1, 7, 33): C is A @ Wh, s1 its
    row sums and s2 its rows' sums of squares, over s1 and s2 holding values beforehand."""
    NR = nr_of(dtype)
    for b, K, G in [(1, 7, 7), (MR, 33, NR), (2 * MR + 3, 1, 2 * NR + 1), (MR, 7, 2 * NR + 1)]:
        A, W, ref = problem(b, K, G, dtype, 19700 + b + K + G)
        C = np.full((b, G), 5.0, dtype)
        s1 = np.full(b, 3.0, dtype)
        s2 = np.full(b, 3.0, dtype)
        rgemm_rowstats(A, pack(W), C, G, s1, s2)
        assert np.abs(C - ref).max() <= tol(dtype, K, ref), (b, K, G)
        r1, r2 = ref.sum(1), (ref * ref).sum(1)
        assert np.abs(s1 - r1).max() <= tol(dtype, K * G, r1), (b, K, G)
        assert np.abs(s2 - r2).max() <= tol(dtype, K * G, r2), (b, K, G)


def schedule_by_hand(plan, ntiles, K):
    """fetch_schedule's docstring, written out: lines of each region; sh the largest of 2, 1, 0 whose share
    ceil(K / 2**sh) leaves a tile for every line (else 0); per the smallest share up to it that does; then the
    walk, region after region, each tile taking up to per of one region's next lines."""
    lines = [(int(nbytes) + 63) // 64 for _, nbytes in plan]

    def tiles(share):
        return sum(-(-n // share) for n in lines)

    for sh in (2, 1, 0):
        most = max(1, -(-K // 2 ** sh))
        if tiles(most) <= ntiles:
            break
    per = next((s for s in range(1, most + 1) if tiles(s) <= ntiles), most)
    pa, pn = [0] * ntiles, [0] * ntiles
    f = 0
    for (addr, _), n in zip(plan, lines):
        done = 0
        while done < n and f < ntiles:
            take = min(per, n - done)
            pa[f], pn[f] = int(addr) + 64 * done, take
            done += take
            f += 1
    return sh, pa, pn


def test_fetch_schedule_against_its_definition():
    plans = [[(1000, 64)], [(1000, 65)], [(4096, 640), (90000, 1)], [(0, 200), (6400, 128), (12800, 300)],
             [(64, 64 * 9)], [(128, 64 * 12), (40960, 64 * 5)]]
    for regions in plans:
        plan = np.array(regions, np.int64).reshape(-1, 2)
        for ntiles in (1, 2, 3, 4, 5, 6, 8, 13, 40):
            for K in (1, 4, 7, 8, 9, 33):
                sh, pa, pn = fetch_schedule(plan, ntiles, K)
                want = schedule_by_hand(regions, ntiles, K)
                assert (sh, list(pa), list(pn)) == want, (regions, ntiles, K)
    sh, pa, pn = fetch_schedule(np.empty((0, 2), np.int64), 4, 7)  # nothing to fetch: no lines asked
    assert sh == 2 and not pn.any()


@pytest.mark.parametrize("dtype", DTYPES)
def test_rgemm_fetch_with_a_plan_is_the_product(dtype):
    """The plan names real buffers (a prefetch of them is only a hint): C equals np.dot whatever it asks."""
    NR = nr_of(dtype)
    A, W, ref = problem(2 * MR + 1, 33, 2 * NR + 7, dtype, 19733)
    other = np.zeros(4096, np.uint8)
    plan = np.array([[other.ctypes.data, 4096], [A.ctypes.data, A.nbytes]], np.int64)
    C = np.full(ref.shape, 9.0, dtype)
    rgemm_fetch(A, pack(W), C, ref.shape[1], plan)
    assert np.abs(C - ref).max() <= tol(dtype, 33, ref)
