"""lnrnn/training/prewarm.py against its docstrings, with children stood in (nothing spawned or compiled): an
armed block left by Ctrl-C (KeyboardInterrupt, not an Exception) stops the children at once and re-raises; a
child still compiling after WAIT_S is killed and reaped by wait(), which returns with the key marked done; the
child process's entry point reads the spec from its first command-line argument (sys.argv[1])."""
import json

import numpy as np
import pytest

from lnrnn.training import prewarm
from test_prewarm import fake_layer, spawns  # noqa: F401  (the fixture: Popen recorded, a cold cache)
from test_values271_prewarm_memory import _Recorder


def test_ctrl_c_in_the_armed_block_stops_the_children(spawns, monkeypatch):  # noqa: F811
    child = _Recorder()
    monkeypatch.setattr(prewarm.subprocess, "Popen", lambda cmd, **kw: child)
    with pytest.raises(KeyboardInterrupt):
        with prewarm.armed():
            prewarm.layer_forward(fake_layer(cell="rnn", norm="ln", I=3, H=5))
            raise KeyboardInterrupt
    assert ("kill",) in child.calls, "killed, not waited for"
    assert ("wait", prewarm.WAIT_S) not in child.calls
    assert prewarm._state["children"] == {("rnn", "ln", "float32"): None}
    assert prewarm._state["armed"] is False


def test_a_child_past_the_bound_is_killed_and_wait_returns(monkeypatch):
    slow = _Recorder(slow=True)
    key = ("lstm", "bn", "float64")
    monkeypatch.setattr(prewarm, "_state", {"armed": False, "children": {key: slow}})
    prewarm.wait()
    assert slow.calls == [("wait", 600.0), ("kill",), ("wait", None)]
    assert prewarm._state["children"] == {key: None}


def test_the_child_reads_its_spec_from_its_first_argument(monkeypatch):
    spec = {"cell": "lstm", "norm": "ln", "I": 3, "H": 5, "dtype": "float64", "clip_gates": 2.0}
    got = []
    monkeypatch.setattr(prewarm, "compile_backward", got.append)
    monkeypatch.setattr(prewarm.sys, "argv", ["lnrnn/training/prewarm.py", json.dumps(spec)])
    prewarm.main()
    prewarm.main([json.dumps(dict(spec, dtype="float32"))])
    assert got == [spec, dict(spec, dtype="float32")]
    assert np.dtype(got[0]["dtype"]) == np.float64
