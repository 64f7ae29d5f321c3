"""Round 284: the per-step product's choice, word for word. rec_choice.decide's reasons with the ratio to two
places written out by hand; the record's file named by the host key computed with hashlib (test_values178's
key_by_hand), its contents read back as JSON, the child's measurement stood in by a counting function and
measured again where the CPU or the key inside the record differs; the child's environment and its last output
line; choose's dWh reason without a record for either rule; blas._choose_rec handing rec_choice the rule of the
MKL it was given and LNRNN_DWH_GEMM's accepted and ignored values."""
import json
import sys
from types import SimpleNamespace

import pytest

from lnrnn.kernels.cpu import blas
from lnrnn.kernels.cpu import rec_choice as rc
from test_values178_rec_choice import key_by_hand


def test_decide_reasons_word_for_word():
    measured = "measured on this CPU, rgemm took {}x the BLAS's time on the per-step shapes"
    assert rc.decide(0.874, ("blas", "kind")) == ("rgemm", measured.format("0.87"))
    assert rc.decide(0.8951, ("blas", "kind")) == ("rgemm", measured.format("0.90"))
    assert rc.decide(1.234, ("rgemm", "kind")) == ("blas", measured.format("1.23"))
    assert rc.decide(0.9, ("rgemm", "by kind")) == ("rgemm", measured.format("0.90")
                                                     + ", level within noise, so by CPU kind: by kind")
    assert rc.decide(None, ("blas", "by kind")) == ("blas", "by kind")


@pytest.fixture
def records(monkeypatch, tmp_path):
    state = {"calls": 0, "ratio": 0.5, "dwh_ratio": 1.5}

    def run_child():
        state["calls"] += 1
        return {"shapes": [[1, 2, 3, 0.25, 0.5]], "ratio": state["ratio"], "dwh_shapes": [],
                "dwh_ratio": state["dwh_ratio"]}
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    monkeypatch.setattr(rc, "run_child", run_child)
    return state, tmp_path


def test_record_named_by_the_host_key_and_measured_again_on_another(records):
    state, folder = records
    name, cpu = "libmkl_rt.so.2", "AMD EPYC 9R14 | fpu avx512f"
    key = key_by_hand(rc.HERE, name, cpu)
    assert len(key) == 16
    want = {"shapes": [[1, 2, 3, 0.25, 0.5]], "ratio": 0.5, "dwh_shapes": [], "dwh_ratio": 1.5, "key": key}
    assert rc.recorded(name, cpu) == want and state["calls"] == 1
    assert sorted(p.name for p in folder.glob("*.json")) == [f"rec-choice-{key}.json"]
    assert json.loads((folder / f"rec-choice-{key}.json").read_text()) == want
    # read back, not measured again
    assert rc.recorded(name, cpu) == want and state["calls"] == 1
    # another CPU: another key, another record
    state["ratio"] = 1.25
    other = key_by_hand(rc.HERE, name, "Xeon | fpu")
    assert rc.recorded(name, "Xeon | fpu")["key"] == other and state["calls"] == 2
    assert sorted(p.name for p in folder.glob("*.json")) == sorted([f"rec-choice-{key}.json",
                                                                   f"rec-choice-{other}.json"])
    # a record under the right name holding another key: measured again and rewritten
    (folder / f"rec-choice-{key}.json").write_text(json.dumps(dict(want, key="0" * 16)))
    assert rc.recorded(name, cpu) == dict(want, ratio=1.25) and state["calls"] == 3
    assert json.loads((folder / f"rec-choice-{key}.json").read_text())["key"] == key


def test_the_child_runs_with_its_environment_and_its_last_line_is_read(monkeypatch):
    seen = []

    def run(args, env, **kw):
        seen.append((args, env))
        return SimpleNamespace(returncode=0, stdout='compiling\n{"ratio": 0.75, "dwh_ratio": 1.25, "shapes": []}\n')
    monkeypatch.setattr(rc.subprocess, "run", run)
    monkeypatch.setenv("LNRNN_REC_GEMM", "blas")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "4")
    monkeypatch.setenv("LNRNN_MARK_284", "kept")
    assert rc.run_child() == {"ratio": 0.75, "dwh_ratio": 1.25, "shapes": []}
    (args, env), = seen
    assert args == [sys.executable, "-c", rc.CHILD]
    assert (env["LNRNN_REC_GEMM"], env["LNRNN_NO_CACHE"], env["NUMBA_NUM_THREADS"], env["LNRNN_MARK_284"]) == \
        ("rgemm", "1", "1", "kept")


def test_choose_without_a_record_gives_each_rules_dwh_reason(monkeypatch):
    monkeypatch.setattr(rc, "recorded", lambda blas_name, cpu: None)
    assert rc.choose("numpy", "cpu", ("blas", "no AVX-512")) == (
        "blas", "no AVX-512 (not measured: no record could be made)", "blas", "the per-step products run on the BLAS")
    assert rc.choose("numpy", "cpu", ("rgemm", "AMD")) == (
        "rgemm", "AMD (not measured: no record could be made)", "blas", "not measured")
    monkeypatch.setattr(rc, "recorded", lambda blas_name, cpu: {"ratio": 0.5, "dwh_ratio": 0.8})
    assert rc.choose("numpy", "cpu", ("blas", "kind")) == (
        "rgemm", "measured on this CPU, rgemm took 0.50x the BLAS's time on the per-step shapes",
        "rgemm", "measured on this CPU, rgemm's blocks took 0.80x the BLAS's time")


def test_choose_rec_hands_over_the_rule_of_its_own_mkl(monkeypatch):
    for var in ("LNRNN_REC_GEMM", "LNRNN_BLAS", "LNRNN_DWH_GEMM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(blas.rg, "AVX512", True)
    info = {"vendor_id": "GenuineIntel", "model name": "Xeon 8592", "flags": "fpu avx512f"}
    monkeypatch.setattr(blas, "cpuinfo", info.__getitem__)
    monkeypatch.setattr(blas, "MKL_PATH", "/opt/mkl/lib/libmkl_rt.so.2")
    seen = []

    def choose(blas_name, cpu, rule):
        seen.append((blas_name, cpu, rule))
        return rule[0], "stood in", "blas", "dwh stood in"
    monkeypatch.setattr(blas.rec_choice, "choose", choose)
    assert blas._choose_rec(False)[:2] == ("rgemm", "stood in")
    assert blas._choose_rec(True)[:2] == ("blas", "stood in")
    assert seen == [
        ("numpy", "Xeon 8592 | fpu avx512f", ("rgemm", "AVX-512 without MKL: rgemm outruns np.dot on the per-step "
                                                       "shapes")),
        ("libmkl_rt.so.2", "Xeon 8592 | fpu avx512f", ("blas", "MKL on a CPU of vendor GenuineIntel: its packed "
                                                               "GEMM is as fast as rgemm or faster"))]


@pytest.mark.parametrize("value, want", [
    (" BLAS ", ("blas", "LNRNN_DWH_GEMM=blas asks for it")),
    ("blas", ("blas", "LNRNN_DWH_GEMM=blas asks for it")),
    ("Rgemm", ("rgemm", "LNRNN_DWH_GEMM=rgemm asks for it")),
    ("numpy", ("rgemm", "measured")),
    ("", ("rgemm", "measured")),
])
def test_dwh_gemm_values_accepted_and_ignored(monkeypatch, value, want):
    monkeypatch.setenv("LNRNN_DWH_GEMM", value)
    assert blas._asked_dwh("rgemm", "w", "rgemm", "measured") == ("rgemm", "w", *want)
