"""lnrnn/compiling.py by value: the compile clock over several separate and nested compilations on a stand-in clock
(the seconds are the length of the union of their intervals, worked out here from the events), and the cache index
check reading every data file its index names: a missing one (Numba compiles that signature again) does not end
the check, so a later one holding another signature still has the index deleted."""
import os
import pickle
from types import SimpleNamespace

import numba
import pytest

from lnrnn import compiling


def union_length(intervals):
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


@pytest.mark.parametrize("events", [
    [(1.0, +1), (2.5, -1), (4.0, +1), (7.0, -1), (10.0, +1), (10.25, -1)],              # three apart
    [(0.0, +1), (1.0, +1), (2.0, -1), (3.0, -1), (5.0, +1), (6.0, +1), (8.0, -1), (9.5, -1)],  # nested pairs
])
def test_compile_clock_is_the_union_of_the_intervals(monkeypatch, events):
    now = [0.0]
    monkeypatch.setattr(compiling, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    clock = compiling.CompileClock()
    depth, since, intervals = 0, None, []
    for t, step in events:
        now[0] = t
        if step > 0:
            clock.on_start(None)
            if depth == 0:
                since = t
            depth += 1
        else:
            clock.on_end(None)
            depth -= 1
            if depth == 0:
                intervals.append((since, t))
        assert clock.busy == (depth > 0)
        assert clock.seconds() == pytest.approx(union_length(intervals + ([(since, t)] if depth else [])))
    now[0] = 100.0
    assert clock.seconds() == pytest.approx(union_length(intervals))


class Sig:
    def __init__(self, args):
        self.args = args


def write_cache(folder, base, stamp, overloads, data):
    """An index as Numba writes it (its version pickled, then (stamp, {key: data file name})) and data files
    whose item 3 holds a signature's args; data files not in `data` are not written."""
    with open(os.path.join(folder, base + ".nbi"), "wb") as f:
        pickle.dump(numba.__version__, f)
        f.write(pickle.dumps((stamp, overloads)))
    for name, args in data.items():
        with open(os.path.join(folder, name), "wb") as f:
            pickle.dump((None, None, None, Sig(args)), f)
    return os.path.join(folder, base + ".nbi")


def test_a_missing_data_file_does_not_end_the_check(tmp_path):
    folder, base, stamp = str(tmp_path), "lstm.lstm_forward-212-mkl.py311", ("s", 1)
    k32, k64 = (("float32",), "cpu"), (("float64",), "cpu")
    overloads = {k32: "f.0.nbc", k64: "f.1.nbc"}
    # the first data file missing, the second holding the other signature: the index goes
    index = write_cache(folder, base, stamp, overloads, {"f.1.nbc": ("int64",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not os.path.exists(index)
    # the first missing, the second right: it stays
    index = write_cache(folder, base, stamp, overloads, {"f.1.nbc": ("float64",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is False and os.path.exists(index)
    # both there, the second wrong: it goes
    index = write_cache(folder, base, stamp, overloads, {"f.0.nbc": ("float32",), "f.1.nbc": ("float32",)})
    assert compiling.drop_unreadable_index(folder, base, stamp) is True and not os.path.exists(index)
