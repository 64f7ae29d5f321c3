"""lnrnn/kernels/cpu/rec_choice.py: measure() on a fake clock and fake products whose every call moves the clock
by its multiply-adds times a per-product cost (each shape's seconds per product, the pairs it times and the
geometric mean of the ratios worked out here); the host key against SHA-1 over its parts taken here, on copies
of the keyed sources, and a record read back under it until one source changes; the user's record folder from
XDG_CACHE_HOME or ~/.cache; a child's one-line garbage refused; a failed measurement run once, the rule
deciding; a measured record written whole, then read back without measuring."""
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import types

import numpy as np
import pytest

from lnrnn.kernels.cpu import blas as real_blas
from lnrnn.kernels.cpu import rec_choice as rc

COST = {"rgemm": 1e-9, "blas": 2e-9, "gemm": 3e-9}       # seconds per multiply-add of each fake product


def fake_products(monkeypatch):
    clock = {"now": 0.0}
    monkeypatch.setattr(rc, "time", types.SimpleNamespace(perf_counter=lambda: clock["now"]))
    calls = {}

    def mul(kind):
        def run(A, W, P, out):
            assert P == (kind, W.shape)                  # each product gets its own pack of this W
            (m, K), N = A.shape, W.shape[1]
            calls[(kind, m, K, N)] = calls.get((kind, m, K, N), 0) + 1
            clock["now"] += m * K * N * COST[kind]
        return run

    blocks = {"rgemm": [], "blas": []}

    def grad_t_add(A, D, CT):
        blocks["rgemm"].append(len(A))
        clock["now"] += len(A) * 1e-3

    def gemm_add(A, D, out, trans_a):
        blocks["blas"].append(len(A))
        clock["now"] += len(A) * 4e-3
    fake = types.SimpleNamespace(
        rgemm_mul=mul("rgemm"), rgemm_pack=lambda W, m: ("rgemm", W.shape),
        blas_mul=mul("blas"), blas_pack=lambda W, m: ("blas", W.shape),
        gemm_mul=mul("gemm"), gemm_pack=lambda W: ("gemm", W.shape),
        dwh_blocks=real_blas.dwh_blocks, grad_t_add=grad_t_add, gemm_add=gemm_add)
    return fake, calls, blocks


def test_measure_on_a_fake_clock(monkeypatch):
    fake, calls, blocks = fake_products(monkeypatch)
    out = rc.measure(fake)
    want_rows, logs = [], []
    for m, K, N in rc.SHAPES + rc.ROW_SHAPES:
        other = "gemm" if (m, K, N) in rc.ROW_SHAPES else "blas"   # many rows: the plain GEMM; a step's: packed
        mkn = m * K * N
        reps = max(3, int(rc.ROUND_FLOPS / mkn))
        assert calls[("rgemm", m, K, N)] == calls[(other, m, K, N)] == (rc.ROUNDS + 1) * reps   # a warm-up round
        want_rows.append([m, K, N, mkn * COST["rgemm"], mkn * COST[other]])
        logs.append(math.log(COST["rgemm"] / COST[other]))
    assert len(calls) == 2 * len(want_rows)
    np.testing.assert_allclose(np.array(out["shapes"]), np.array(want_rows), rtol=1e-6)
    assert out["ratio"] == pytest.approx(math.exp(sum(logs) / len(logs)), rel=1e-9)
    assert out["dwh_ratio"] == pytest.approx(0.25, rel=1e-9)
    assert [r[:3] for r in out["dwh_shapes"]] == [list(s) for s in rc.DWH_SHAPES]
    assert out["grad_ratio"] == pytest.approx(0.25, rel=1e-9)          # the same stand-ins within L2
    assert [r[:3] for r in out["grad_shapes"]] == [list(s) for s in rc.GRAD_SHAPES]
    # every gathered row once a round, large partials' and those within L2
    rows = sum((rc.ROUNDS + 1) * R for _, _, R in rc.DWH_SHAPES + rc.GRAD_SHAPES)
    assert sum(blocks["rgemm"]) == sum(blocks["blas"]) == rows
    assert not rc.whole({"ratio": out["ratio"]}) and rc.whole(out)


@pytest.fixture
def sources(monkeypatch, tmp_path):
    here = tmp_path / "src"
    here.mkdir()
    for name in ("rgemm.py", "blas.py", "rec_choice.py"):   # the sources of both products and of the choice
        shutil.copy(os.path.join(rc.HERE, name), here / name)
    monkeypatch.setattr(rc, "HERE", str(here))
    return here


def key_by_definition(here, blas_name, cpu):
    h = hashlib.sha1()
    for part in (cpu, blas_name, sys.version.split()[0]):
        h.update(part.encode() + b"\0")
    for name in ("rgemm.py", "blas.py", "rec_choice.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("changed", ["rgemm.py", "blas.py", "rec_choice.py"])
def test_host_key_by_definition_and_a_changed_source_measures_again(monkeypatch, tmp_path, sources, changed):
    cpu = "AMD EPYC | avx512f"
    key = rc.host_key("libmkl_rt.so.2", cpu)
    assert key == key_by_definition(sources, "libmkl_rt.so.2", cpu)
    assert rc.host_key("libmkl_rt.so.2", cpu + " sse") != key and rc.host_key("numpy", cpu) != key
    folder = tmp_path / "records"
    folder.mkdir()
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(folder))
    (folder / f"rec-choice-{key}.json").write_text(json.dumps({"ratio": 0.5, "dwh_ratio": 0.5, "key": key}))
    calls = []
    monkeypatch.setattr(rc, "run_child", lambda: calls.append(1) or {"ratio": 2.0, "dwh_ratio": 2.0})
    assert rc.choose("libmkl_rt.so.2", cpu, ("blas", "by kind"))[0] == "rgemm" and calls == []
    with open(sources / changed, "a") as f:
        f.write("# a new version\n")
    new = rc.host_key("libmkl_rt.so.2", cpu)
    assert new != key and new == key_by_definition(sources, "libmkl_rt.so.2", cpu)
    assert rc.choose("libmkl_rt.so.2", cpu, ("blas", "by kind"))[0] == "blas" and calls == [1]
    assert json.loads((folder / f"rec-choice-{new}.json").read_text())["key"] == new


def test_the_user_folder_follows_xdg_cache_home_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv("LNRNN_REC_RECORD_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert rc.record_dirs()[1] == os.path.join(str(tmp_path / "xdg"), "lnrnn")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert rc.record_dirs()[1] == os.path.join(str(tmp_path / "home"), ".cache", "lnrnn")


@pytest.mark.parametrize("stdout", ["{not json\n", "ratio 0.7\n", "Traceback (most recent call last)\n"])
def test_a_child_printing_one_line_of_garbage_is_refused(monkeypatch, stdout):
    monkeypatch.setattr(rc, "subprocess", types.SimpleNamespace(
        run=lambda args, **kw: types.SimpleNamespace(returncode=0, stdout=stdout, stderr=""),
        SubprocessError=subprocess.SubprocessError, DEVNULL=subprocess.DEVNULL))
    assert rc.run_child() is None


def test_a_failed_measurement_runs_once_and_the_rule_decides(monkeypatch, tmp_path):
    folders = [str(tmp_path / "a"), str(tmp_path / "b")]
    monkeypatch.setattr(rc, "record_dirs", lambda: folders)
    calls = []
    monkeypatch.setattr(rc, "run_child", lambda: calls.append(1))
    rec, why, dwh, _ = rc.choose("numpy", "cpu X", ("rgemm", "by kind"))
    assert (rec, dwh, calls) == ("rgemm", "blas", [1]) and why == "by kind (not measured: no record could be made)"
    assert not any(f.endswith(".json") for d in folders if os.path.isdir(d) for f in os.listdir(d))


def test_a_measured_record_is_written_whole_and_read_back(monkeypatch, tmp_path):
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(rc, "run_child", lambda: calls.append(1) or {"ratio": 1.5, "dwh_ratio": 0.5, "shapes": []})
    first = rc.choose("numpy", "cpu Y", ("rgemm", "by kind"))
    second = rc.choose("numpy", "cpu Y", ("rgemm", "by kind"))
    key = rc.host_key("numpy", "cpu Y")
    assert first == second and first[0] == "blas" and calls == [1]
    assert os.listdir(tmp_path) == [f"rec-choice-{key}.json"] or \
        sorted(os.listdir(tmp_path)) == sorted([f"rec-choice-{key}.json", f"rec-choice-{key}.json.lock"])
    assert json.loads((tmp_path / f"rec-choice-{key}.json").read_text()) == \
        {"ratio": 1.5, "dwh_ratio": 0.5, "shapes": [], "key": key}


@pytest.mark.parametrize("ratio,want", [(rc.RGEMM_BELOW, "rule"), (math.nextafter(rc.RGEMM_BELOW, 0), "rgemm"),
                                        (rc.BLAS_ABOVE, "rule"), (math.nextafter(rc.BLAS_ABOVE, 9), "blas")])
def test_the_thresholds_exactly(ratio, want):
    for rule in (("rgemm", "by kind"), ("blas", "by kind")):
        assert rc.decide(ratio, rule)[0] == (rule[0] if want == "rule" else want)
