"""Round 351 (tests/mutants/mutants_values351.py): the per-step product's measurement and its record, by value.
in_turns' warm-up and odd count of rounds (the median is one round's own ratio); measure over the per-step shapes
and the row shapes together, on stand-in products that only advance a stand-in clock (the geometric mean of the
ratios worked out by hand); measure_dwh's (R, 4H) gradient rows per block and the geometric mean over its shapes,
and its refusal word for word where rgemm's blocks would not run on rgemm; record_dirs by its documented rule; the
child's time limit passed on; a record that cannot be written in the first folder measured and kept in the next."""
import builtins
import math
import os
import subprocess

import pytest

from lnrnn.kernels.cpu import rec_choice as rc
from test_values178_rec_choice import Clock, key_by_hand
from test_values284_rec_choice import records  # noqa: F401 - the fixture: a counting stand-in for the child
from test_values325_rec_choice import COST, StandInBlas


def _runs(clock, durations):
    its = [iter(d) for d in durations]

    def run(it):
        def f():
            clock.t += next(it)
        return f
    return [run(it) for it in its], its


def test_in_turns_one_warm_up_then_an_odd_count_of_rounds(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    # warm-up first (not timed), then nine rounds, non-monotonic; powers of two so that the clock's sums are exact
    d0 = [64.0, 3.0, 1.0, 6.0, 2.0, 8.0, 0.5, 4.0, 7.0, 5.0]
    d1 = [32.0, 2.0, 4.0, 1.0, 8.0, 2.0, 4.0, 1.0, 2.0, 4.0]
    runs, its = _runs(clock, [d0, d1])
    (b0, b1), log = rc.in_turns(runs)
    assert (b0, b1) == (0.5, 1.0)
    # ratios by round: 1.5, 0.25, 6, 0.25, 4, 0.125, 4, 3.5, 1.25 -> sorted, the 5th of 9 is 1.5 (a round's own)
    assert math.exp(log) == pytest.approx(1.5, rel=1e-12)
    assert next(its[0], None) is None and next(its[1], None) is None   # each ran once to warm up and 9 times


class DwhBlas(StandInBlas):
    """StandInBlas whose dWh blocks are 2 steps on rgemm and 3 on the BLAS at any m, and which notes the shapes
    of the gathered rows, their gradient rows and the partial each product adds into."""

    def __init__(self, clock, runs_on_rgemm=True):
        super().__init__(clock)
        self.shapes, self.runs_on_rgemm = [], runs_on_rgemm

    def dwh_blocks(self, H, I, m, T, itemsize, rec, dwh):
        self.blocks_asked.append((H, m, T, dwh))
        return {"rgemm": 2, "blas": 3}[dwh], self.runs_on_rgemm and dwh == "rgemm"

    def grad_t_add(self, A, D, CT):
        self.shapes.append(("grad_t_add", A.shape, D.shape, CT.shape))
        super().grad_t_add(A, D, CT)

    def gemm_add(self, A, D, out, trans_a):
        self.shapes.append(("gemm_add", A.shape, D.shape, out.shape))
        super().gemm_add(A, D, out, trans_a)


def test_measure_dwh_gradient_rows_of_four_gates_and_geometric_mean(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    monkeypatch.setattr(rc, "DWH_SHAPES", ((5, 3, 14), (2, 4, 10)))
    blas = DwhBlas(clock)
    rows, ratio = rc.measure_dwh(blas)
    # H 5, m 3, R 14: T = 14 // 3 = 4 steps; rgemm's blocks 2 * 3 = 6 rows (6, 6, 2), the BLAS's 3 * 3 = 9 (9, 5);
    # an LSTM's dL/d(h Wh) has 4H = 20 columns
    first = ([("grad_t_add", (6, 5), (6, 20), (20, 5))] * 2 + [("grad_t_add", (2, 5), (2, 20), (20, 5))]
             + [("gemm_add", (9, 5), (9, 20), (5, 20)), ("gemm_add", (5, 5), (5, 20), (5, 20))])
    # H 2, m 4, R 10: T 2; rgemm's blocks of 8 rows (8, 2), the BLAS's of 12 (10): 4H = 8 columns
    second = ([("grad_t_add", (8, 2), (8, 8), (8, 2)), ("grad_t_add", (2, 2), (2, 8), (8, 2))]
              + [("gemm_add", (10, 2), (10, 8), (2, 8))])
    assert blas.shapes == first * 10 + second * 10
    assert blas.blocks_asked == [(5, 3, 4, "rgemm"), (5, 3, 4, "blas"), (2, 4, 2, "rgemm"), (2, 4, 2, "blas")]
    g, a = COST["grad_t_add"], COST["gemm_add"]
    assert rows == [[5, 3, 14, 3 * g, 2 * a], [2, 4, 10, 2 * g, 1 * a]]
    # ratios 3/4 and 2/2: geometric mean sqrt(0.75) (the arithmetic one would be 0.875)
    assert ratio == pytest.approx(math.sqrt(0.75), rel=1e-12)


def test_measure_dwh_refuses_blocks_that_would_not_run_on_rgemm(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    monkeypatch.setattr(rc, "DWH_SHAPES", ((5, 3, 14),))
    blas = DwhBlas(clock, runs_on_rgemm=False)
    with pytest.raises(ValueError) as e:
        rc.measure_dwh(blas)
    assert str(e.value) == "measure_dwh: H 5, m 3: rgemm's blocks would not run on rgemm"
    assert blas.calls == []


def test_measure_times_the_per_step_shapes_and_the_row_shapes(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    monkeypatch.setattr(rc, "SHAPES", ((3, 5, 7), (2, 9, 4)))
    monkeypatch.setattr(rc, "ROW_SHAPES", ((11, 2, 13),))
    monkeypatch.setattr(rc, "ROUND_FLOPS", 1000.0)
    monkeypatch.setattr(rc, "measure_dwh", lambda blas, within_l2=False: (([[4, 5, 6, 0.5, 1.0]], 0.5) if within_l2
                                                                          else ([[1, 2, 3, 0.5, 0.25]], 2.0)))
    blas = StandInBlas(clock)
    got = rc.measure(blas)
    # products per round: 1000 / 105 -> 9, 1000 / 72 -> 13, 1000 / 286 -> 3
    want_calls = ([("rgemm_mul", (3, 5, 7))] * 9 + [("blas_mul", (3, 5, 7))] * 9) * 10 \
        + ([("rgemm_mul", (2, 9, 4))] * 13 + [("blas_mul", (2, 9, 4))] * 13) * 10 \
        + ([("rgemm_mul", (11, 2, 13))] * 3 + [("gemm_mul", (11, 2, 13))] * 3) * 10
    assert blas.calls == want_calls
    r, b, gm = COST["rgemm_mul"], COST["blas_mul"], COST["gemm_mul"]
    assert got["shapes"] == [[3, 5, 7, r, b], [2, 9, 4, r, b], [11, 2, 13, r, gm]]
    # rgemm 2x the BLAS on both per-step shapes, 0.5x the GEMM on the row shape: (2 * 2 * 0.5) ** (1/3)
    assert got["ratio"] == pytest.approx(2.0 ** (1 / 3), rel=1e-12)
    assert (got["dwh_shapes"], got["dwh_ratio"]) == ([[1, 2, 3, 0.5, 0.25]], 2.0)
    assert (got["grad_shapes"], got["grad_ratio"]) == ([[4, 5, 6, 0.5, 1.0]], 0.5)


def test_record_dirs_by_the_documented_rule(monkeypatch, tmp_path):
    package_cache = os.path.join(os.path.dirname(os.path.abspath(rc.__file__)), "__pycache__")
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path / "given"))
    assert rc.record_dirs() == [str(tmp_path / "given")]
    monkeypatch.delenv("LNRNN_REC_RECORD_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert rc.record_dirs() == [package_cache, os.path.join(str(tmp_path / "xdg"), "lnrnn")]
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert rc.record_dirs() == [package_cache, os.path.join(str(tmp_path / "home"), ".cache", "lnrnn")]


def test_the_child_runs_under_its_time_limit(monkeypatch):
    seen = []

    def hangs(args, **kw):
        seen.append(kw)
        raise subprocess.TimeoutExpired(args, kw.get("timeout"))
    monkeypatch.setattr(rc.subprocess, "run", hangs)
    assert rc.run_child() is None
    kw, = seen
    # the child's own limit: five minutes (the lock's waiters wait that and a minute more)
    assert (kw["timeout"], kw["capture_output"], kw["text"], kw["stdin"]) == (300.0, True, True, subprocess.DEVNULL)


def test_a_record_that_cannot_be_written_is_kept_in_the_next_folder(records, monkeypatch, tmp_path):
    state, _ = records
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setattr(rc, "record_dirs", lambda: [str(first), str(second)])

    def refusing_open(path, *a, **kw):
        if str(path).startswith(str(first)) and str(path).endswith(".tmp"):
            raise PermissionError(13, "Permission denied", str(path))
        return builtins.open(path, *a, **kw)
    monkeypatch.setattr(rc, "open", refusing_open, raising=False)
    name, cpu = "libopenblas.so.0", "AMD EPYC 9R14 | fpu avx512f"
    key = key_by_hand(rc.HERE, name, cpu)
    want = {"shapes": [[1, 2, 3, 0.25, 0.5]], "ratio": 0.5, "dwh_shapes": [], "dwh_ratio": 1.5, "key": key}
    assert rc.recorded(name, cpu) == want
    assert os.listdir(first) == [f"rec-choice-{key}.json.lock"]
    assert sorted(os.listdir(second)) == [f"rec-choice-{key}.json", f"rec-choice-{key}.json.lock"]
    assert rc.read_record(str(second / f"rec-choice-{key}.json"), key) == want
