"""lnrnn/training/memory.py at its edges: a run that needs exactly the memory available fits and one byte
less refuses it, and format_bytes names an exact MB, GB or TB in that unit."""
import pytest

from lnrnn.errors import UserError
from lnrnn.training import memory

MB, GB, TB = 1 << 20, 1 << 30, 1 << 40


def test_a_run_needing_exactly_what_is_available_fits(monkeypatch):
    monkeypatch.delenv(memory.SKIP_ENV, raising=False)
    parts = {"parameters": 100 * MB, "activations": 400 * MB, "evaluation": 300 * MB, "data": 24 * MB}
    peak = (100 + 400 + 24) * MB                 # the larger of activations and evaluation counts
    assert memory.check_fits(parts, available=peak) == peak
    with pytest.raises(UserError, match="this run needs about 524.0 MB of memory"):
        memory.check_fits(parts, available=peak - 1)


@pytest.mark.parametrize("n,text", [(MB, "1.0 MB"), (GB, "1.0 GB"), (TB, "1.0 TB"), (MB - 1024, "1023 KB"),
                                    (2 * GB, "2.0 GB")])
def test_exact_units_are_named_in_that_unit(n, text):
    assert memory.format_bytes(n) == text
