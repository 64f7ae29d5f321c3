"""Round 325 (tests/mutants/mutants_values325.py): the per-step product's choice by value. decide and decide_dwh at
and around their bounds (0.9 and 1.1) with the reasons written out by hand; measure on stand-in products that only
advance a stand-in clock: how many products a round runs per shape (max(3, int(2e7 / (m K N))) worked out here),
which product the rows' shapes time, each shape's seconds and the geometric mean of the ratios; measure_dwh's
blocks of steps times rows and its rows (H, m, R, seconds); the record's lock file and wait, and folders that
cannot be made or written passed over for the next."""
import contextlib
import math
import os

import numpy as np
import pytest

from lnrnn.kernels.cpu import rec_choice as rc
from test_values178_rec_choice import Clock, key_by_hand
from test_values284_rec_choice import records  # noqa: F401 - the fixture: a counting stand-in for the child

MEASURED = "measured on this CPU, rgemm took {}x the BLAS's time on the per-step shapes"
LEVEL = ", level within noise, so by CPU kind: "


def test_decide_at_and_around_its_bounds():
    assert rc.decide(0.8999, ("blas", "by kind")) == ("rgemm", MEASURED.format("0.90"))
    assert rc.decide(0.9, ("blas", "by kind")) == ("blas", MEASURED.format("0.90") + LEVEL + "by kind")
    assert rc.decide(0.92, ("blas", "by kind")) == ("blas", MEASURED.format("0.92") + LEVEL + "by kind")
    assert rc.decide(0.94, ("blas", "no AVX-512")) == ("blas", MEASURED.format("0.94") + LEVEL + "no AVX-512")
    assert rc.decide(1.06, ("rgemm", "AMD")) == ("rgemm", MEASURED.format("1.06") + LEVEL + "AMD")
    assert rc.decide(1.08, ("rgemm", "AMD")) == ("rgemm", MEASURED.format("1.08") + LEVEL + "AMD")
    assert rc.decide(1.1, ("rgemm", "AMD")) == ("rgemm", MEASURED.format("1.10") + LEVEL + "AMD")
    assert rc.decide(1.1001, ("rgemm", "AMD")) == ("blas", MEASURED.format("1.10"))


def test_decide_dwh_reasons_to_two_places_and_its_bound():
    measured = "measured on this CPU, rgemm's blocks took {}x the BLAS's time"
    assert rc.decide_dwh(0.874, "rgemm") == ("rgemm", measured.format("0.87"))
    assert rc.decide_dwh(0.8999, "rgemm") == ("rgemm", measured.format("0.90"))
    assert rc.decide_dwh(0.92, "rgemm") == ("blas", measured.format("0.92"))
    assert rc.decide_dwh(1.456, "rgemm") == ("blas", measured.format("1.46"))
    assert rc.decide_dwh(0.5, "blas") == ("blas", "the per-step products run on the BLAS")


# seconds per product of each stand-in, powers of two so that the clock's sums are exact
COST = {"rgemm_mul": 2.0 ** -9, "blas_mul": 2.0 ** -10, "gemm_mul": 2.0 ** -8,
        "grad_t_add": 2.0 ** -10, "gemm_add": 2.0 ** -9}
# steps of m rows in a block: rgemm's and the BLAS's, per m (DWH_SHAPES' m 16 and 4, GRAD_SHAPES' 32)
STEPS = {(16, "rgemm"): 7, (16, "blas"): 11, (4, "rgemm"): 9, (4, "blas"): 25, (32, "rgemm"): 2, (32, "blas"): 8}


class StandInBlas:
    """blas.py's products as measure and measure_dwh call them: each call advances the clock by its COST and is
    noted (name, shape); the packs name what they packed."""

    def __init__(self, clock):
        self.clock, self.calls, self.blocks_asked = clock, [], []

    def rgemm_pack(self, W, m):
        return ("rgemm", W.shape, m)

    def blas_pack(self, W, m):
        return ("blas", W.shape, m)

    def gemm_pack(self, W):
        return ("gemm", W.shape)

    def _mul(self, name, A, W, P, out):
        assert out.shape == (A.shape[0], W.shape[1]) and P[1] == W.shape
        assert P[0] == {"rgemm_mul": "rgemm", "blas_mul": "blas", "gemm_mul": "gemm"}[name]
        self.calls.append((name, (A.shape[0], A.shape[1], W.shape[1])))
        self.clock.t += COST[name]

    def rgemm_mul(self, A, W, P, out):
        self._mul("rgemm_mul", A, W, P, out)

    def blas_mul(self, A, W, P, out):
        self._mul("blas_mul", A, W, P, out)

    def gemm_mul(self, A, W, P, out):
        self._mul("gemm_mul", A, W, P, out)

    def dwh_blocks(self, H, I, m, T, itemsize, rec, dwh):
        self.blocks_asked.append((H, I, m, T, itemsize, rec, dwh))
        return STEPS[(m, dwh)], dwh == "rgemm"

    def grad_t_add(self, A, D, CT):
        assert A.shape[0] == D.shape[0] and CT.shape == (D.shape[1], A.shape[1])
        self.calls.append(("grad_t_add", A.shape[0]))
        self.clock.t += COST["grad_t_add"]

    def gemm_add(self, A, D, out, trans_a):
        assert A.shape[0] == D.shape[0] and trans_a and out.shape == (A.shape[1], D.shape[1])
        self.calls.append(("gemm_add", A.shape[0]))
        self.clock.t += COST["gemm_add"]


def test_measure_on_stand_in_products_and_clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    blas = StandInBlas(clock)
    got = rc.measure(blas)
    # products per round: 2e7 multiply-adds over m K N, whole ones, at least 3
    #   64*128*512 = 4194304 -> 4.77 -> 4; 128*256*1024 = 33554432 -> 0.60 -> 3; 32*400*1600 = 20480000 -> 0.98 -> 3;
    #   8*400*1600 = 5120000 -> 3.91 -> 3; 896*28*1024 = 25690112 -> 0.78 -> 3; 256*1024*28 = 7340032 -> 2.72 -> 3
    reps = {(64, 128, 512): 4, (64, 512, 128): 4, (128, 256, 1024): 3, (128, 1024, 256): 3, (32, 400, 1600): 3,
            (32, 1600, 400): 3, (8, 400, 1600): 3, (8, 1600, 400): 3, (896, 28, 1024): 3, (256, 1024, 28): 3}
    step_shapes = [(64, 128, 512), (64, 512, 128), (128, 256, 1024), (128, 1024, 256), (32, 400, 1600),
                   (32, 1600, 400), (8, 400, 1600), (8, 1600, 400)]
    row_shapes = [(896, 28, 1024), (256, 1024, 28)]      # timed against the BLAS's GEMM (rows_mul), not rec_mul
    want_calls = []
    for s in step_shapes + row_shapes:
        other = "gemm_mul" if s in row_shapes else "blas_mul"
        # a warm-up run of each, then 9 rounds in turns: rgemm's reps products, then the other's
        want_calls += ([("rgemm_mul", s)] * reps[s] + [(other, s)] * reps[s]) * 10
    products = [c for c in blas.calls if c[0].endswith("_mul")]
    assert products == want_calls
    assert got["shapes"] == [[*s, 2.0 ** -9, 2.0 ** -8 if s in row_shapes else 2.0 ** -10]
                             for s in step_shapes + row_shapes]
    # rgemm 2x the BLAS on the 8 per-step shapes, 0.5x the GEMM on the 2 row shapes: 2 ** ((8 - 2) / 10)
    assert got["ratio"] == pytest.approx(2.0 ** 0.6, rel=1e-12)


def test_measure_dwh_blocks_and_rows(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    blas = StandInBlas(clock)
    rows, ratio = rc.measure_dwh(blas)
    assert blas.blocks_asked == [(400, 0, 16, 150, 4, "rgemm", "rgemm"), (400, 0, 16, 150, 4, "rgemm", "blas"),
                                 (400, 0, 4, 500, 4, "rgemm", "rgemm"), (400, 0, 4, 500, 4, "rgemm", "blas")]
    # H 400, m 16, R 2400: rgemm's blocks of 7 * 16 = 112 rows (21 and 48 left), the BLAS's of 11 * 16 = 176 (13
    # and 112 left); m 4, R 2000: rgemm's of 9 * 4 = 36 (55 and 20 left), the BLAS's of 25 * 4 = 100 (20)
    run1 = [("grad_t_add", 112)] * 21 + [("grad_t_add", 48)]
    run2 = [("gemm_add", 176)] * 13 + [("gemm_add", 112)]
    run3 = [("grad_t_add", 36)] * 55 + [("grad_t_add", 20)]
    run4 = [("gemm_add", 100)] * 20
    assert blas.calls == (run1 + run2) * 10 + (run3 + run4) * 10
    assert rows == [[400, 16, 2400, 22 * 2.0 ** -10, 14 * 2.0 ** -9], [400, 4, 2000, 56 * 2.0 ** -10, 20 * 2.0 ** -9]]
    # ratios 22 / 28 and 56 / 40: their geometric mean is sqrt(1232 / 1120) = sqrt(1.1)
    assert ratio == pytest.approx(math.sqrt(1.1), rel=1e-12)


def test_the_record_is_made_under_its_own_lock_file(records, monkeypatch):
    state, folder = records
    seen = []
    real = rc.exclusive

    @contextlib.contextmanager
    def recording(path, wait_s):
        seen.append((path, wait_s))
        with real(path, wait_s) as held:
            yield held
    monkeypatch.setattr(rc, "exclusive", recording)
    name, cpu = "libopenblas.so.0", "AMD EPYC 7763 | fpu avx2"
    key = key_by_hand(rc.HERE, name, cpu)
    assert rc.recorded(name, cpu)["key"] == key and state["calls"] == 1
    record = os.path.join(str(folder), f"rec-choice-{key}.json")
    # waiters wait out the child's own limit (300 s) and a minute more
    assert seen == [(record + ".lock", 300.0 + 60)]
    assert sorted(os.listdir(folder)) == [f"rec-choice-{key}.json", f"rec-choice-{key}.json.lock"]


def test_a_folder_that_cannot_be_made_is_passed_over(records, monkeypatch, tmp_path):
    state, _ = records
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    second = tmp_path / "second"
    monkeypatch.setattr(rc, "record_dirs", lambda: [str(blocker / "lnrnn"), str(second)])
    name, cpu = "numpy", "Xeon | fpu"
    key = key_by_hand(rc.HERE, name, cpu)
    assert rc.recorded(name, cpu) == {"shapes": [[1, 2, 3, 0.25, 0.5]], "ratio": 0.5, "dwh_shapes": [],
                                      "dwh_ratio": 1.5, "key": key}
    assert state["calls"] == 1 and blocker.read_text() == "not a folder\n"
    assert sorted(os.listdir(second)) == [f"rec-choice-{key}.json", f"rec-choice-{key}.json.lock"]


def test_a_folder_that_cannot_be_written_is_passed_over(records, monkeypatch, tmp_path):
    state, _ = records
    first, second = tmp_path / "read-only", tmp_path / "second"
    first.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if str(p) == str(first)
                        else real_access(p, mode, **kw))
    monkeypatch.setattr(rc, "record_dirs", lambda: [str(first), str(second)])
    name, cpu = "numpy", "Xeon | fpu sse2"
    key = key_by_hand(rc.HERE, name, cpu)
    assert rc.recorded(name, cpu)["key"] == key and state["calls"] == 1
    assert os.listdir(first) == []
    assert sorted(os.listdir(second)) == [f"rec-choice-{key}.json", f"rec-choice-{key}.json.lock"]
