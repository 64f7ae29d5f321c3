"""lnrnn/interop/torch.py's dropout, as nn.LSTM's: a rate in [0, 1) (1 refused, just under it taken), applied
between layers only, so a one-layer module in training mode gives its evaluation output and draws nothing
from torch's generator, while a two-layer one draws and changes its output."""
import pytest

torch = pytest.importorskip("torch")

from lnrnn.interop.torch import LSTM, RNN  # noqa: E402


@pytest.mark.parametrize("module", [LSTM, RNN])
def test_the_dropout_rate_lies_in_zero_to_one(module):
    for bad in (1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match=r"dropout must lie in \[0, 1\)"):
            module(3, 4, num_layers=2, dropout=bad)
    assert module(3, 4, num_layers=2, dropout=0.999).dropout == 0.999


def test_dropout_between_layers_only():
    torch.manual_seed(0)
    x = torch.randn(5, 2, 3)
    one = LSTM(3, 4, num_layers=1, dropout=0.5)
    with torch.no_grad():
        want, _ = one.eval()(x)
        state = torch.get_rng_state()
        got, _ = one.train()(x)
    assert torch.equal(got, want)
    assert torch.equal(torch.get_rng_state(), state)        # nothing drawn after the last layer
    two = LSTM(3, 4, num_layers=2, dropout=0.5)
    with torch.no_grad():
        want, _ = two.eval()(x)
        state = torch.get_rng_state()
        got, _ = two.train()(x)
    assert not torch.equal(torch.get_rng_state(), state) and not torch.allclose(got, want)
