"""lnrnn/sample.py's memory check before the first step (_fits): the samples' points (count, steps, 3) and the
window's weights (count, steps, U), float64, are refused when their 8 x count x steps x (3 + U) bytes exceed the
memory available and pass at exactly that many, each factor counted on its own (count 1, 3 and 1,000; steps 1 and
50; U 0 and 7). The refusal names the count, the points and, with U, the window's weights. The memory is set
through test_values419_memory_refusals.available."""
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import _fits
from test_values419_memory_refusals import available


@pytest.mark.parametrize("count", [1, 3, 1000])
@pytest.mark.parametrize("steps", [1, 50])
@pytest.mark.parametrize("U", [0, 7])
def test_samples_fit_in_exactly_their_bytes_and_not_one_fewer(monkeypatch, count, steps, U):
    need = 8 * count * steps * (3 + U)
    available(monkeypatch, need)
    _fits(count, steps, U)
    available(monkeypatch, need - 1)
    with pytest.raises(UserError) as e:
        _fits(count, steps, U)
    said = str(e.value)
    assert said.startswith(f"{count:,} sample{'s' * (count != 1)} of up to {steps:,} point")
    assert ("the window's weights on their characters" in said) == (U > 0)
