"""bench/gpu_run.sh, the GPU machine's prepared run, parses, and its parts' default limits fit one call: together at
most 460 s (a device call of at most 8 minutes with the machine's start, leaving the device time for a rerun)."""
import pathlib
import re
import shutil
import subprocess

import pytest

import testpaths

SCRIPT = pathlib.Path(testpaths.ROOT) / "bench" / "gpu_run.sh"


def limits():
    return {k: int(v) for k, v in re.findall(r'"\$\{LIMIT_([A-Z_]+):=(\d+)\}"', SCRIPT.read_text())}


def test_parts_fit_one_call():
    lim = limits()
    assert {"STEP", "TESTS_NEW", "TESTS", "TORCH", "BN", "SYNTH", "TRAIN_STROKES", "CTC"} <= set(lim)
    # TRAIN runs only with an MNIST folder given, BARRIER only when asked for (0 by default)
    assert lim["BARRIER"] == 0
    assert sum(v for k, v in lim.items() if k not in ("TRAIN", "BARRIER")) <= 460
    for name in lim:  # every limit is used by a part
        assert f'"$LIMIT_{name}"' in SCRIPT.read_text(), name


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_script_parses():
    r = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
