"""lnrnn/commands/info.py against what it reads: the versions line gives each module's own version, and the
CPU cores line the machine's core count (os.cpu_count), which is not the Numba threads in use."""
import numba
import numpy
import scipy

import lnrnn
from lnrnn.commands import info


def _line(lines, start):
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, lines
    return found[0]


def test_each_version_is_its_modules_own(monkeypatch):
    monkeypatch.setattr(info, "_threading", lambda: ("workqueue", 3, 8))   # Numba's probe reads numpy's version
    monkeypatch.setattr(numpy, "__version__", "1.0.numpy")
    monkeypatch.setattr(scipy, "__version__", "2.0.scipy")
    monkeypatch.setattr(numba, "__version__", "3.0.numba")
    lines = info.info_lines()
    assert _line(lines, "numba 3") == "numba 3.0.numba, numpy 1.0.numpy, scipy 2.0.scipy"
    assert lines[0] == f"lnrnn {lnrnn.__version__}"


def test_the_cores_line_is_the_machines_cores_not_the_threads(monkeypatch):
    monkeypatch.setattr(info, "_threading", lambda: ("workqueue", 3, 8))
    monkeypatch.setattr(info.os, "cpu_count", lambda: 37)
    assert _line(info.info_lines(), "CPU cores: ") == "CPU cores: 37"
