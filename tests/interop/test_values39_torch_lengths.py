"""lnrnn.torch's lengths: whole numbers only. Float lengths were cast to int64 (1.5 ran as 1, 2.9 as 2); now a
float, complex or bool tensor is refused by name, and integer tensors of any width and lists of ints run as
int64 lengths, equal to the same lengths given as int64."""
import pytest

torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402


@pytest.mark.parametrize("lengths", [torch.tensor([1.5, 2.0]), torch.tensor([2.0, 1.0], dtype=torch.float64),
                                     torch.tensor([True, False])])
def test_lengths_that_are_not_whole_numbers_are_refused(lengths):
    m = lt.LSTM(3, 4)
    with pytest.raises(TypeError, match="lengths must be whole numbers"):
        m(torch.zeros(5, 2, 3), lengths=lengths)


@pytest.mark.parametrize("lengths", [[5, 2], torch.tensor([5, 2], dtype=torch.int32),
                                     torch.tensor([5, 2], dtype=torch.int16)])
def test_integer_lengths_of_any_width_run_as_int64(lengths):
    torch.manual_seed(0)
    m = lt.LSTM(3, 4, dtype=torch.float64)
    x = torch.randn(5, 2, 3, dtype=torch.float64)
    want, (h, c) = m(x, lengths=torch.tensor([5, 2]))
    got, (h2, c2) = m(x, lengths=lengths)
    assert torch.equal(got, want) and torch.equal(h, h2) and torch.equal(c, c2)
    assert torch.equal(got[2:, 1], torch.zeros_like(got[2:, 1]))   # row 1 stops after 2 steps
