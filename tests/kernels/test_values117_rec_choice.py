"""The per-step product's measurement and record (lnrnn/kernels/cpu/rec_choice.py) on faked clocks and children:
in_turns' durations against a clock that each run moves by a known amount (the reading after a run less the one
before it; the minimum of the rounds and the log of the median ratio worked out here); run_child taking only a
child's last line holding both ratios; the record's folder from LNRNN_REC_RECORD_DIR; a record written here under
the host key read back without measuring, each product decided by its own ratio (the per-step shapes' ratio for
the product, dWh's for its blocks); a corrupt record measured again; no record possible -> the rule by CPU kind,
the reason string saying so."""
import json
import math
import subprocess
import types

import pytest

from lnrnn.kernels.cpu import rec_choice as rc


def test_in_turns_durations_on_a_faked_clock(monkeypatch):
    clock = {"now": 100.0}
    monkeypatch.setattr(rc, "time", types.SimpleNamespace(perf_counter=lambda: clock["now"]))
    cost = [1.0, 4.0]                                    # rgemm's run takes 1 s, the BLAS's 4 s, every round

    def runner(i):
        def run():
            clock["now"] += cost[i]
        return run
    best, log = rc.in_turns([runner(0), runner(1)])
    assert best == (1.0, 4.0)
    assert log == pytest.approx(math.log(1.0 / 4.0))


def _fake_subprocess(monkeypatch, stdout, returncode=0):
    seen = []

    def run(args, **kw):
        seen.append((args, kw))
        return types.SimpleNamespace(returncode=returncode, stdout=stdout, stderr="")
    monkeypatch.setattr(rc, "subprocess", types.SimpleNamespace(run=run, SubprocessError=subprocess.SubprocessError,
                                                         DEVNULL=subprocess.DEVNULL))
    return seen


@pytest.mark.parametrize("line", ['{"ratio": 0.7}', '{"dwh_ratio": 0.7}', '{"ratio": "0.7", "dwh_ratio": 1}',
                                  "[0.7, 1.0]"])
def test_run_child_refuses_a_half_record(monkeypatch, line):
    _fake_subprocess(monkeypatch, "numba says hello\n" + line + "\n")
    assert rc.run_child() is None


def test_run_child_takes_the_last_line_of_a_whole_record(monkeypatch):
    want = {"shapes": [], "ratio": 0.7, "dwh_shapes": [], "dwh_ratio": 1.3}
    seen = _fake_subprocess(monkeypatch, "warning\n" + json.dumps(want) + "\n")
    assert rc.run_child() == want
    assert seen[0][1]["env"]["NUMBA_NUM_THREADS"] == "1"
    _fake_subprocess(monkeypatch, json.dumps(want), returncode=1)
    assert rc.run_child() is None


def test_record_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    assert rc.record_dirs() == [str(tmp_path)]


@pytest.fixture
def records(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    monkeypatch.setattr(rc, "run_child", lambda: calls.append(1) or {"ratio": 3.0, "dwh_ratio": 3.0})
    return tmp_path, calls


@pytest.mark.parametrize("ratio,dwh_ratio,want", [(0.5, 2.0, ("rgemm", "blas")), (2.0, 0.5, ("blas", "blas")),
                                                  (0.5, 0.5, ("rgemm", "rgemm"))])
def test_a_record_of_this_host_read_back_each_product_by_its_ratio(records, ratio, dwh_ratio, want):
    folder, calls = records
    key = rc.host_key("openblas", "cpu W | avx512")
    (folder / f"rec-choice-{key}.json").write_text(json.dumps({"ratio": ratio, "dwh_ratio": dwh_ratio, "key": key}))
    rec, why, dwh, dwh_why = rc.choose("openblas", "cpu W | avx512", ("blas", "intel"))
    assert (rec, dwh) == want and calls == []
    assert f"rgemm took {ratio:.2f}x" in why
    if rec == "rgemm":
        assert f"{dwh_ratio:.2f}x" in dwh_why


def test_a_corrupt_record_ignored_and_measured_again(records):
    folder, calls = records
    key = rc.host_key("openblas", "cpu V")
    path = folder / f"rec-choice-{key}.json"
    path.write_text('{"ratio": 0.5, "dwh_ratio"')
    rec, why, _, _ = rc.choose("openblas", "cpu V", ("rgemm", "amd"))
    assert rec == "blas" and "3.00x" in why and calls == [1]
    assert json.loads(path.read_text()) == {"ratio": 3.0, "dwh_ratio": 3.0, "key": key}


@pytest.mark.parametrize("rule", [("rgemm", "an AMD core"), ("blas", "an Intel core")])
def test_no_record_possible_keeps_the_rule(monkeypatch, tmp_path, rule):
    monkeypatch.setenv("LNRNN_REC_RECORD_DIR", str(tmp_path))
    monkeypatch.setattr(rc, "run_child", lambda: None)
    rec, why, dwh, dwh_why = rc.choose("openblas", "cpu U", rule)
    assert rec == rule[0] and why == f"{rule[1]} (not measured: no record could be made)"
    assert dwh == "blas"
    assert list(tmp_path.glob("rec-choice-*.json")) == []
