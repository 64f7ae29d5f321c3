"""lnrnn/kernels/cpu/rec_choice.py without a child process or a real clock: decide against a hand table of ratios
around the thresholds (ties go to the CPU kind's rule); host_key over a folder of copies of the sources it
names, against sha1 of its parts written out here, and changed by an edit of any of rgemm.py, blas.py and
rec_choice.py but not of another file; in_turns on a fake clock whose runs take known times (the minima and
the log of the median ratio worked out here); measure_dwh with a fake blas module that records the rows of
each block it is handed (each product over its own blocks, together every row once); recorded and choose
writing the record into a temporary folder and reading it back without measuring again."""
import hashlib
import json
import math
import os
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.kernels.cpu import rec_choice as rc

RULE_R = ("rgemm", "kind says rgemm")
RULE_B = ("blas", "kind says blas")


@pytest.mark.parametrize("ratio,rule,want", [
    (None, RULE_R, "rgemm"), (None, RULE_B, "blas"),
    (0.5, RULE_B, "rgemm"), (0.89, RULE_B, "rgemm"),
    (0.9, RULE_B, "blas"), (0.9, RULE_R, "rgemm"),       # at the threshold: level, the rule
    (1.1, RULE_R, "rgemm"), (1.1, RULE_B, "blas"),
    (1.11, RULE_R, "blas"), (2.5, RULE_R, "blas"), (2.5, RULE_B, "blas")])
def test_decide_by_hand(ratio, rule, want):
    got, why = rc.decide(ratio, rule)
    assert got == want
    if ratio is None:
        assert why == rule[1]
    else:
        assert f"rgemm took {ratio:.2f}x the BLAS's time" in why
        assert (rule[1] in why) == (rc.RGEMM_BELOW <= ratio <= rc.BLAS_ABOVE)


def key_by_hand(folder, blas_name, cpu):
    h = hashlib.sha1()
    for part in (cpu, blas_name, sys.version.split()[0]):
        h.update(part.encode() + b"\0")
    for name in ("rgemm.py", "blas.py", "rec_choice.py"):
        with open(os.path.join(folder, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def test_host_key_names_the_three_sources(monkeypatch, tmp_path):
    for name in ("rgemm.py", "blas.py", "rec_choice.py", "gemm.py"):
        (tmp_path / name).write_text(f"# {name}\n")
    monkeypatch.setattr(rc, "HERE", str(tmp_path))
    key = rc.host_key("libmkl_rt.so.2", "AMD EPYC | avx512f")
    assert key == key_by_hand(str(tmp_path), "libmkl_rt.so.2", "AMD EPYC | avx512f")
    assert rc.host_key("numpy", "AMD EPYC | avx512f") != key
    assert rc.host_key("libmkl_rt.so.2", "Intel Xeon | avx512f") != key
    (tmp_path / "gemm.py").write_text("# edited\n")                  # not a source of the choice
    assert rc.host_key("libmkl_rt.so.2", "AMD EPYC | avx512f") == key
    for name in ("rgemm.py", "blas.py", "rec_choice.py"):
        (tmp_path / name).write_text(f"# {name}, edited\n")
        new = rc.host_key("libmkl_rt.so.2", "AMD EPYC | avx512f")
        assert new != key, name
        assert new == key_by_hand(str(tmp_path), "libmkl_rt.so.2", "AMD EPYC | avx512f")
        key = new


class Clock:
    def __init__(self):
        self.t = 0.0

    def perf_counter(self):
        return self.t


def test_in_turns_on_a_fake_clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    # the first value of each: the warm-up call; then one per round. The last round holds run 0's fastest.
    d0 = [100.0, 5.0, 4.0, 6.0, 7.0, 3.5, 8.0, 9.0, 6.0, 2.0]
    d1 = [200.0, 4.0, 4.0, 3.0, 5.0, 7.0, 4.0, 4.5, 3.0, 4.0]
    assert len(d0) == len(d1) == rc.ROUNDS + 1
    it0, it1 = iter(d0), iter(d1)

    def run(it):
        def f():
            clock.t += next(it)
        return f
    (b0, b1), log = rc.in_turns([run(it0), run(it1)])
    assert b0 == min(d0[1:]) == 2.0 and b1 == min(d1[1:]) == 3.0
    ratios = sorted(a / b for a, b in zip(d0[1:], d1[1:]))
    assert log == pytest.approx(math.log(ratios[len(ratios) // 2]), rel=1e-12)
    assert next(it0, None) is None and next(it1, None) is None        # every duration used: 1 + ROUNDS calls


def test_measure_dwh_hands_each_product_its_own_blocks(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(rc, "time", clock)
    calls = {"rgemm": [], "blas": []}

    def dwh_blocks(H, I, m, T, itemsize, rec, dwh):
        assert (I, itemsize, rec) == (0, 4, "rgemm") and T * m <= max(R for _, _, R in rc.DWH_SHAPES)
        return (3, True) if dwh == "rgemm" else (5, False)             # steps of m rows per block

    def grad_t_add(A, D, CT):
        assert CT.shape == (D.shape[1], A.shape[1])
        calls["rgemm"].append((A.shape[0], D.shape[0]))
        clock.t += 1.0                                                  # a block on rgemm: 1 s, on the BLAS: 2 s

    def gemm_add(A, D, out, trans_a):
        assert trans_a and out.shape == (A.shape[1], D.shape[1])
        calls["blas"].append((A.shape[0], D.shape[0]))
        clock.t += 2.0
    blas = SimpleNamespace(dwh_blocks=dwh_blocks, grad_t_add=grad_t_add, gemm_add=gemm_add)
    rows, ratio = rc.measure_dwh(blas)
    assert [r[:3] for r in rows] == [list(s) for s in rc.DWH_SHAPES]
    calls_per_shape = {k: [] for k in calls}
    blocks = {k: [] for k in calls}
    n = {"rgemm": 3, "blas": 5}
    for kind in calls:
        at = 0
        for H, m, R in rc.DWH_SHAPES:
            block = n[kind] * m
            want = [(min(block, R - r0),) * 2 for r0 in range(0, R, block)]
            per_run = len(want)
            got = calls[kind][at:at + per_run * (1 + rc.ROUNDS)]
            assert got == want * (1 + rc.ROUNDS), (kind, H, m)
            calls_per_shape[kind].append(sum(g[0] for g in got[:per_run]))
            blocks[kind].append(per_run)
            at += per_run * (1 + rc.ROUNDS)
        assert at == len(calls[kind])
        assert calls_per_shape[kind] == [R for _, _, R in rc.DWH_SHAPES]   # every row once per run
    assert [r[3:] for r in rows] == [[1.0 * a, 2.0 * b] for a, b in zip(blocks["rgemm"], blocks["blas"])]
    assert ratio == pytest.approx(math.exp(np.mean([math.log(a / (2.0 * b))
                                                    for a, b in zip(blocks["rgemm"], blocks["blas"])])), rel=1e-12)


def test_recorded_writes_the_record_and_reads_it_back(monkeypatch, tmp_path):
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    measured = []

    def child():
        measured.append(1)
        return {"shapes": [], "ratio": 0.5, "dwh_ratio": 2.0}
    monkeypatch.setattr(rc, "run_child", child)
    key = rc.host_key("numpy", "cpu x")
    rec = rc.recorded("numpy", "cpu x")
    assert rec == {"shapes": [], "ratio": 0.5, "dwh_ratio": 2.0, "key": key} and len(measured) == 1
    with open(tmp_path / f"rec-choice-{key}.json") as f:
        assert json.load(f) == rec
    assert rc.recorded("numpy", "cpu x") == rec and len(measured) == 1            # read back, not measured
    rec_, why, dwh, dwh_why = rc.choose("numpy", "cpu x", RULE_B)
    assert (rec_, dwh) == ("rgemm", "blas") and "0.50x" in why and "2.00x" in dwh_why
    assert len(measured) == 1
    rc.recorded("numpy", "another cpu")                                          # another key: measured
    assert len(measured) == 2 and len(list(tmp_path.glob("rec-choice-*.json"))) == 2
    assert not list(tmp_path.glob("*.tmp"))
