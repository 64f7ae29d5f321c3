"""The stacks' shape refusals name x as the caller passed it: (B, T, I) with batch_first=True, (T, I) unbatched,
not the (T, B, I) the module turns it into before checking."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from test_values132_torch import _raises  # noqa: E402


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_a_batch_first_input_of_the_wrong_width_is_named_as_passed(cls):
    m = cls(2, 3, batch_first=True)
    _raises(ValueError, f"{cls.__name__}: x must be (T, B, 2) ((B, T, 2) with batch_first=True), not (5, 4, 7).",
            lambda: m(torch.zeros(5, 4, 7)))
    _raises(ValueError, f"{cls.__name__}: x must hold at least one time step and one sequence, not shape (5, 0, 2).",
            lambda: m(torch.zeros(5, 0, 2)))


def test_an_unbatched_input_of_the_wrong_width_is_named_as_passed():
    _raises(ValueError, "LSTM: x must be (T, B, 2) ((B, T, 2) with batch_first=True), not (4, 7).",
            lambda: lt.LSTM(2, 3)(torch.zeros(4, 7)))
    _raises(ValueError, "LSTM: x must hold at least one time step and one sequence, not shape (0, 2).",
            lambda: lt.LSTM(2, 3)(torch.zeros(0, 2)))
