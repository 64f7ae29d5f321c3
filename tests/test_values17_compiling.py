"""lnrnn/compiling.py: the compile clock counts a compilation still running; a cache index written by another Numba
version or for other sources is left alone (Numba ignores it) while one of this version and stamp whose data file
holds another signature is deleted; exclusive() waits for another holder's release; and only modules of the lnrnn
package (not 'lnrnn_tools') make a user's function lnrnn's to cache."""
import os
import pickle
import threading
import time
import types

import numba

from lnrnn import compiling


def test_seconds_count_a_compilation_still_running(monkeypatch):
    now = [10.0]
    monkeypatch.setattr(compiling.time, "perf_counter", lambda: now[0])
    clock = compiling.CompileClock()
    clock.on_start(None)
    now[0] = 13.0
    assert clock.seconds() == 3.0 and clock.busy
    clock.on_end(None)
    now[0] = 20.0
    assert clock.seconds() == 3.0 and not clock.busy
    clock.on_start(None)
    now[0] = 20.5
    assert clock.seconds() == 3.5


class Sig:
    def __init__(self, args):
        self.args = args


def write_index(folder, base, version, stamp, overloads, data):
    """A cache index as Numba writes it (its version pickled, then (stamp, {key: data file})) and its data files,
    each a pickle whose item 3 has the signature's args."""
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        pickle.dump(version, f)
        f.write(pickle.dumps((stamp, overloads)))
    for name, args in data.items():
        with open(os.path.join(folder, name), "wb") as f:
            pickle.dump((None, None, None, Sig(args)), f)
    return os.path.join(folder, base + ".nbi")


def test_an_index_of_another_version_or_stamp_is_left_alone(tmp_path):
    folder, base, stamp = str(tmp_path), "mod.f-12-numpy.py311", ("stamp", 1)
    key = (("float64",), "target")
    # another Numba version: whatever follows its version is not read
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        pickle.dump("0.0.0-other", f)
        f.write(b"not a pickle of this version")
    assert compiling.drop_unreadable_index(folder, base, stamp) is False
    assert os.path.exists(os.path.join(folder, base + ".nbi"))
    # this version, other sources: its data file (another signature) is not checked
    index = write_index(folder, base, numba.__version__, ("old", 0), {key: "f.0.nbc"}, {"f.0.nbc": ("int64",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and os.path.exists(index)
    # this version and stamp: the same data file is wrong, so the index goes
    index = write_index(folder, base, numba.__version__, stamp, {key: "f.0.nbc"}, {"f.0.nbc": ("int64",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not os.path.exists(index)
    # and a matching one stays
    index = write_index(folder, base, numba.__version__, stamp, {key: "f.0.nbc"}, {"f.0.nbc": ("float64",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and os.path.exists(index)


def test_exclusive_waits_for_the_holder(tmp_path):
    path = str(tmp_path / "k.lock")
    got = {}

    def second():
        t0 = time.monotonic()
        with compiling.exclusive(path, 10.0) as held:
            got["held"], got["waited"] = held, time.monotonic() - t0

    with compiling.exclusive(path, 0.0) as held:
        if not held:  # no fcntl (Windows): nothing to wait for
            return
        th = threading.Thread(target=second)
        th.start()
        time.sleep(0.3)
        assert "held" not in got  # still waiting
    th.join(10)
    assert got["held"] is True and got["waited"] >= 0.25


def test_only_lnrnn_modules_make_a_function_lnrnns(tmp_path):
    user_file = str(tmp_path / "user.py")

    def function_with(**globals_):
        g = dict(globals_)
        exec("def f():\n    return 0\n", g)
        return g["f"]

    assert not compiling._uses_lnrnn(function_with(np=types.ModuleType("numpy")), user_file)
    assert not compiling._uses_lnrnn(function_with(tools=types.ModuleType("lnrnn_tools")), user_file)
    helper = types.SimpleNamespace(__module__="lnrnnx.helpers")
    assert not compiling._uses_lnrnn(function_with(h=helper), user_file)
    assert compiling._uses_lnrnn(function_with(k=types.ModuleType("lnrnn.kernels.lstm")), user_file)
    assert compiling._uses_lnrnn(function_with(k=types.ModuleType("lnrnn")), user_file)
