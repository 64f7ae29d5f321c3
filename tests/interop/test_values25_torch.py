"""lnrnn.torch by value (round 25 of the planted bugs, tests/mutants/mutants_values25.py): an unbatched step of
LSTMCell/RNNCell takes the (H,) state torch.nn.LSTMCell/RNNCell take and gives their values; a stack's
forget_bias is the initial forget-gate bias of every layer and direction (PyTorch's two biases summed, gate
order [i | f | g | o]); lengths of another count than the batch are refused with a ValueError naming them."""
import pytest

torch = pytest.importorskip("torch")

from lnrnn.torch import LSTM, RNN, LSTMCell, RNNCell  # noqa: E402


@pytest.mark.parametrize("ours, theirs", [(LSTMCell, torch.nn.LSTMCell), (RNNCell, torch.nn.RNNCell)])
def test_an_unbatched_step_takes_an_unbatched_state(ours, theirs):
    torch.manual_seed(0)
    I, H = 3, 5
    ref = theirs(I, H, dtype=torch.float64)
    m = ours(I, H, norm=None, dtype=torch.float64)
    m.load_state_dict(ref.state_dict())
    x = torch.randn(I, dtype=torch.float64)
    if ours is LSTMCell:
        hx = (torch.randn(H, dtype=torch.float64), torch.randn(H, dtype=torch.float64))
        got, want = m(x, hx), ref(x, hx)
        assert got[0].shape == (H,) and got[1].shape == (H,)
        torch.testing.assert_close(got[0], want[0])
        torch.testing.assert_close(got[1], want[1])
    else:
        h = torch.randn(H, dtype=torch.float64)
        got = m(x, h)
        assert got.shape == (H,)
        torch.testing.assert_close(got, ref(x, h))
    with pytest.raises(ValueError, match=r"hx must be"):
        m(x, (torch.zeros(1, H, dtype=torch.float64),) * (2 if ours is LSTMCell else 1))   # a batch of 1: not (H,)


@pytest.mark.parametrize("norm", ["ln", "bn", None])
@pytest.mark.parametrize("forget_bias", [3.0, -0.5])
def test_the_forget_bias_of_every_layer_and_direction(norm, forget_bias):
    H = 4
    m = LSTM(3, H, num_layers=2, norm=norm, forget_bias=forget_bias, bidirectional=True)
    for k in range(2):
        for sfx in ("", "_reverse"):
            b = getattr(m, f"bias_ih_l{k}{sfx}") + getattr(m, f"bias_hh_l{k}{sfx}")
            assert torch.all(b[H:2 * H] == forget_bias), (k, sfx, b)
    cell = LSTMCell(3, H, forget_bias=forget_bias)
    assert torch.all((cell.bias_ih + cell.bias_hh)[H:2 * H] == forget_bias)


@pytest.mark.parametrize("cls", [LSTM, RNN])
def test_lengths_of_another_count_are_refused(cls):
    m = cls(2, 3)
    x = torch.randn(4, 2, 2)
    for lengths in ([4, 3, 2], [4], [[4, 3]]):
        with pytest.raises(ValueError, match=r"lengths must hold one length per sequence \(2\)"):
            m(x, lengths=torch.tensor(lengths))
    out, _ = m(x, lengths=torch.tensor([4, 2]))
    assert torch.all(out[2:, 1] == 0)                       # the shorter row's padded steps
