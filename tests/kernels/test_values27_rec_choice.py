"""lnrnn/kernels/cpu/rec_choice.py's timing and choice by value, on a fake clock and fake products: in_turns runs
each call once untimed and then ROUNDS times in turns, and returns each one's best round and the log of the median
over rounds of rgemm's time / the BLAS's; measure's ratio is the geometric mean over the shapes; choose's dWh
blocks follow the per-step product the measurement chose, not the rule by CPU kind."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.kernels.cpu import rec_choice as rc


@pytest.fixture
def clock(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(rc, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    return now


def test_in_turns_best_rounds_and_median_ratio(clock):
    R = rc.ROUNDS
    # call 0 of each is the untimed first run (a compilation: 100 s); then round r takes these times
    rg = [100.0] + [2.0 + 0.5 * ((3 * r) % R) for r in range(R)]     # rgemm's rounds
    bl = [100.0] + [1.0 + 0.25 * ((5 * r) % R) for r in range(R)]    # the BLAS's rounds
    calls = [0, 0]

    def run(i, times):
        def go():
            clock[0] += times[calls[i]]
            calls[i] += 1
        return go
    best, log = rc.in_turns([run(0, rg), run(1, bl)])
    assert calls == [R + 1, R + 1], "each call once untimed, then once a round"
    assert best == (min(rg[1:]), min(bl[1:]))
    ratios = sorted(a / b for a, b in zip(rg[1:], bl[1:]))
    assert log == pytest.approx(math.log(ratios[R // 2]), rel=1e-12)
    assert log > 0, "rgemm is the slower here: its time over the BLAS's is above 1"


def test_measure_takes_the_geometric_mean_over_the_shapes(monkeypatch):
    shapes = rc.SHAPES + rc.ROW_SHAPES
    logs = [math.log(v) for v in np.linspace(0.3, 3.0, len(shapes))]
    got = iter(logs)
    monkeypatch.setattr(rc, "in_turns", lambda runs: ((2e-3, 1e-3), next(got)))
    monkeypatch.setattr(rc, "measure_dwh", lambda blas, within_l2=False: ([[1, 2, 3, 4e-3, 5e-3]], 1.3 if within_l2
                                                                          else 0.7))
    fake = SimpleNamespace(**{n: (lambda *a: None) for n in ("rgemm_mul", "gemm_mul", "blas_mul", "rgemm_pack",
                                                             "gemm_pack", "blas_pack")})
    out = rc.measure(fake)
    ratios = np.exp(logs)
    assert out["ratio"] == pytest.approx(float(np.prod(ratios) ** (1 / len(ratios))), rel=1e-12)
    assert [tuple(s[:3]) for s in out["shapes"]] == list(shapes)
    assert out["dwh_ratio"] == 0.7 and out["dwh_shapes"] == [[1, 2, 3, 4e-3, 5e-3]]
    assert out["grad_ratio"] == 1.3 and out["grad_shapes"] == [[1, 2, 3, 4e-3, 5e-3]]


@pytest.mark.parametrize("ratio,dwh,rule,want", [
    (1.5, 0.5, ("rgemm", "AVX-512 on AMD"), ("blas", "blas")),    # measured BLAS per step: BLAS dWh blocks
    (0.5, 0.5, ("blas", "an Intel CPU with MKL"), ("rgemm", "rgemm")),
    (0.5, 1.0, ("blas", "an Intel CPU with MKL"), ("rgemm", "blas")),
    (1.0, 0.5, ("rgemm", "AVX-512 on AMD"), ("rgemm", "rgemm")),  # level: the rule, then dWh measured
])
def test_choose_follows_the_measured_per_step_product(monkeypatch, ratio, dwh, rule, want):
    monkeypatch.setattr(rc, "recorded", lambda blas_name, cpu: {"ratio": ratio, "dwh_ratio": dwh})
    rec, why, dwh_rec, dwh_why = rc.choose("mkl", "cpu", rule)
    assert (rec, dwh_rec) == want
    if rec == "blas":
        assert dwh_why == "the per-step products run on the BLAS"
    else:
        assert dwh_why.startswith("measured") and f"{dwh:.2f}x" in dwh_why
