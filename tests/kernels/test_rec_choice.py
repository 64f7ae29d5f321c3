"""The per-step product measured once per host (lnrnn/kernels/cpu/rec_choice.py): the decision against
its margins, the record written once and read after, keyed by CPU and BLAS, refused when damaged, one
measurement for processes (here threads) that ask together, and the real child's timings; the second
choice the same child measures (dWh's blocks where the partial outgrows L2) against its margin."""
import json
import math
import os
import threading
import time

import pytest

from lnrnn.kernels.cpu import rec_choice as rc

RULE = ("blas", "by CPU kind")


def test_decide_keeps_the_rule_between_the_margins():
    assert rc.decide(None, RULE) == RULE
    assert rc.decide(rc.RGEMM_BELOW - 0.01, RULE)[0] == "rgemm"
    assert rc.decide(rc.BLAS_ABOVE + 0.01, ("rgemm", "x"))[0] == "blas"
    for ratio in (rc.RGEMM_BELOW + 0.01, 1.0, rc.BLAS_ABOVE - 0.01):
        for rule in (RULE, ("rgemm", "AVX-512 on AMD")):
            choice, why = rc.decide(ratio, rule)
            assert choice == rule[0] and rule[1] in why and f"{ratio:.2f}x" in why
    assert "0.62x" in rc.decide(0.62, RULE)[1]


def test_decide_dwh_takes_rgemm_only_under_its_margin_and_with_rgemm_per_step():
    assert rc.decide_dwh(rc.RGEMM_BELOW - 0.01, "rgemm")[0] == "rgemm"
    for ratio in (rc.RGEMM_BELOW, 1.0, rc.BLAS_ABOVE + 0.5):     # level or slower: the BLAS's blocks, as before
        choice, why = rc.decide_dwh(ratio, "rgemm")
        assert choice == "blas" and f"{ratio:.2f}x" in why
    assert "0.48x" in rc.decide_dwh(0.48, "rgemm")[1]
    assert rc.decide_dwh(0.3, "blas") == ("blas", "the per-step products run on the BLAS")
    assert rc.decide_dwh(None, "rgemm") == ("blas", "not measured")


@pytest.fixture
def fake_child(monkeypatch, tmp_path):
    """rec_choice with its record folder in tmp_path and a child that returns a given ratio, counted."""
    calls = []
    state = {"ratio": 0.5, "delay": 0.0, "dwh_ratio": 0.6}

    def child():
        calls.append(state["ratio"])
        time.sleep(state["delay"])
        return None if state["ratio"] is None else {"shapes": [[8, 16, 64, 1.0, 2.0]], "ratio": state["ratio"],
                                                    "dwh_shapes": [], "dwh_ratio": state["dwh_ratio"]}
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path / "records"))
    monkeypatch.setattr(rc, "run_child", child)
    return calls, state, tmp_path / "records"


def test_the_record_is_measured_once_and_read_after(fake_child):
    calls, state, folder = fake_child
    assert rc.choose("libmkl_rt.so.2", "cpu A", RULE)[::2] == ("rgemm", "rgemm") and calls == [0.5]
    state["ratio"] = 2.0                                       # a second measurement would say the BLAS
    state["dwh_ratio"] = 0.95
    assert rc.choose("libmkl_rt.so.2", "cpu A", RULE)[::2] == ("rgemm", "rgemm") and calls == [0.5]
    (path,) = folder.glob("rec-choice-*.json")
    assert json.loads(path.read_text())["key"] == rc.host_key("libmkl_rt.so.2", "cpu A")
    assert rc.choose("numpy", "cpu A", RULE)[0] == "blas" and calls == [0.5, 2.0]       # another BLAS
    assert rc.choose("libmkl_rt.so.2", "cpu B", RULE)[0] == "blas" and len(calls) == 3  # another CPU
    assert len(list(folder.glob("rec-choice-*.json"))) == 3


@pytest.mark.parametrize("damage", ["half", "not json", "other key", "no ratio", "no dwh ratio"])
def test_a_damaged_record_is_measured_again(fake_child, damage):
    calls, state, folder = fake_child
    rc.choose("numpy", "cpu", RULE)
    (path,) = folder.glob("rec-choice-*.json")
    rec = json.loads(path.read_text())
    text = {"half": path.read_text()[:20], "not json": "\x00\x01",
            "other key": json.dumps(dict(rec, key="0" * 16)), "no ratio": json.dumps({"key": rec["key"]}),
            "no dwh ratio": json.dumps(dict(rec, dwh_ratio=None))}[damage]
    path.write_text(text)
    state["ratio"] = 1.5
    assert rc.choose("numpy", "cpu", RULE)[0] == "blas" and calls == [0.5, 1.5]


def test_without_a_record_the_rule_decides_and_says_so(fake_child, monkeypatch, tmp_path):
    calls, state, folder = fake_child
    state["ratio"] = None                                      # the child failed
    choice, why, dwh, dwh_why = rc.choose("numpy", "cpu", ("rgemm", "AVX-512 on AMD"))
    assert choice == "rgemm" and "AVX-512 on AMD" in why and "not measured" in why and calls == [None]
    assert (dwh, dwh_why) == ("blas", "not measured")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(blocker / "records"))   # cannot be made
    state["ratio"] = 0.5
    assert "not measured" in rc.choose("numpy", "cpu", RULE)[1] and len(calls) == 1


def test_askers_at_once_share_one_measurement(fake_child):
    calls, state, folder = fake_child
    state["delay"] = 0.5
    got = []
    threads = [threading.Thread(target=lambda: got.append(rc.choose("numpy", "cpu", RULE))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == [0.5] and [g[0] for g in got] == ["rgemm"] * 3


def test_the_child_times_both_products_on_every_shape():
    out = rc.run_child()
    assert out is not None, "the measuring child failed"
    shapes = out["shapes"]
    assert [tuple(s[:3]) for s in shapes] == list(rc.SHAPES + rc.ROW_SHAPES)
    assert all(s[3] > 0 and s[4] > 0 for s in shapes)
    assert 0.05 < out["ratio"] < 20 and math.isfinite(out["ratio"])
    assert [tuple(s[:3]) for s in out["dwh_shapes"]] == list(rc.DWH_SHAPES)
    assert all(s[3] > 0 and s[4] > 0 for s in out["dwh_shapes"])
    assert 0.05 < out["dwh_ratio"] < 20 and math.isfinite(out["dwh_ratio"])


def test_the_margins_themselves_keep_the_rule():
    for ratio in (rc.RGEMM_BELOW, rc.BLAS_ABOVE):
        for rule in (RULE, ("rgemm", "AVX-512 on AMD")):
            assert rc.decide(ratio, rule)[0] == rule[0], (ratio, rule)


def test_the_record_goes_beside_the_kernels_first(monkeypatch, tmp_path):
    monkeypatch.delenv("LNRNN_REC_RECORD_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert rc.record_dirs() == [os.path.join(os.path.dirname(os.path.abspath(rc.__file__)), "__pycache__"),
                                str(tmp_path / "cache" / "lnrnn")]
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path / "mine"))
    assert rc.record_dirs() == [str(tmp_path / "mine")]


@pytest.mark.parametrize("rc_,stdout,ok", [
    (0, 'a warning the child printed first\n{"shapes": [], "ratio": 0.8, "dwh_ratio": 0.7}\n', True),
    (0, '{"shapes": [], "ratio": 0.8, "dwh_ratio": 0.7}\n', True),
    (1, '{"shapes": [], "ratio": 0.8, "dwh_ratio": 0.7}\n', False),  # a child that failed after printing
    (0, '{"shapes": [], "ratio": 0.8}\n', False),                   # no dWh measurement
    (0, '{"shapes": [], "dwh_ratio": 0.7}\n', False),
    (0, '{"shapes": []}\n', False),
    (0, "", False),
])
def test_the_child_record_is_its_last_line(monkeypatch, rc_, stdout, ok):
    import subprocess
    seen = {}

    def run(cmd, env, **kw):
        seen.update(env)
        return subprocess.CompletedProcess(cmd, rc_, stdout=stdout, stderr="")
    monkeypatch.setattr(rc.subprocess, "run", run)
    got = rc.run_child()
    assert (got == {"shapes": [], "ratio": 0.8, "dwh_ratio": 0.7}) if ok else got is None
    assert seen["LNRNN_REC_GEMM"] == "rgemm" and seen["LNRNN_NO_CACHE"] == "1"
