"""lnrnn/training/memory.py, eighteenth pass: available_bytes from stand-in cgroup files whose numbers end in a
newline, as the kernel writes them (v2's limit less its usage, else v1's, capping MemAvailable), and check_fits's
refusal written out word for word when the task's sequences are the largest part and the sequence length came
from --steps: the parts over 1% of the peak largest first, the hints over 10% joined with 'or', --steps once."""
import pytest

from lnrnn.errors import UserError
from lnrnn.training import memory
from test_values323_memory import MEMINFO, _files


@pytest.mark.parametrize("files, want", [
    # v2: 2000000 allowed, 1000 used
    ({"meminfo": MEMINFO, "memory.max": "2000000\n", "memory.current": "1000\n"}, 1999000),
    # v1 only: 8192 - 192
    ({"meminfo": MEMINFO, "memory.limit_in_bytes": "8192\n", "memory.usage_in_bytes": "192\n"}, 8000),
])
def test_a_cgroup_limit_ending_in_a_newline_caps_meminfo(monkeypatch, files, want):
    _files(monkeypatch, files)
    assert memory.available_bytes() == want


def test_refusal_with_steps_largest_names_steps_once(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    MB = 1 << 20
    parts = {"parameters": 300 * 1024, "activations": 5 * MB, "evaluation": 1 * MB, "data": 20 * MB}
    # peak: parameters + the larger of activations and evaluation + data = 26521600 bytes = 25.29 MB
    assert 300 * 1024 + 5 * MB + 20 * MB == 26521600
    with pytest.raises(UserError) as e:
        memory.check_fits(parts, available=MB, steps_option=True)
    assert str(e.value) == (
        "this run needs about 25.3 MB of memory (the task's sequences 20.0 MB, activations kept for "
        "backpropagation through time 5.0 MB, parameters, gradients and optimizer state 300 KB) but only 1.0 MB "
        "is available; try a smaller --steps or a smaller --batch-size, --hidden or --tbptt "
        "(or set LNRNN_NO_MEMORY_CHECK=1 to try anyway).")
