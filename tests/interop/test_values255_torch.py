"""lnrnn.torch's options passed through, twelfth pass, judged against torch itself and by definition.

The judges: ``torch.nn.LSTM`` / ``nn.RNN`` at three layers (their own drawn weights, bias_hh nonzero, loaded
strictly: out, the final states and every gradient, with given states); the state_dict layout of a three-layer
bidirectional LN-LSTM written out here from the module docstring (G = 4H rows per weight, layers above the first
reading 2H, norm gains of G or H entries); ``torch.autograd.gradcheck`` of a bidirectional LN-RNN with lengths 0
and T; and the refusals word for word, naming the shape as passed and the layout of hx.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values224_torch import _run  # noqa: E402

F64 = torch.float64


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_three_layer_stack_without_norm_gives_nn_modules_values_and_gradients(kind):
    """norm=None reaches the cell (no LN parameters to load), layers 1 and 2 read H = 4 inputs (I = 3), and the
    weights are stored (G, I) as torch's: out, h_n (c_n) and the gradients of x, h0 (c0) and every parameter."""
    T, B, I, H, L = 4, 2, 3, 4, 3
    torch.manual_seed(255)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, dtype=F64)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(3)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    hx = [torch.randn(L, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    want, got = _run(ref, x, hx), _run(ours, x, hx)
    assert got[0].shape == (T, B, H)
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)


def test_a_three_layer_bidirectional_ln_lstms_state_dict_layout():
    """I = 3, H = 2 (G = 8): weight_ih (8, 3) in layer 0 and (8, 4) above (both directions' 2H); weight_hh (8, 2);
    bias_ih, bias_hh and the gate norms' gains and biases 8 entries; the cell norm's 2; one set per direction."""
    m = lt.LSTM(3, 2, num_layers=3, norm="ln", bidirectional=True, dtype=F64)
    want = {}
    for k in range(3):
        for sfx in (f"l{k}", f"l{k}_reverse"):
            want.update({f"weight_ih_{sfx}": (8, 3 if k == 0 else 4), f"weight_hh_{sfx}": (8, 2),
                         f"bias_ih_{sfx}": (8,), f"bias_hh_{sfx}": (8,)})
            for n in ("ih", "hh"):
                want.update({f"norm_{n}_weight_{sfx}": (8,), f"norm_{n}_bias_{sfx}": (8,)})
            want.update({f"norm_cell_weight_{sfx}": (2,), f"norm_cell_bias_{sfx}": (2,)})
    sd = m.state_dict()
    assert {k: tuple(v.shape) for k, v in sd.items()} == want
    assert {v.dtype for v in sd.values()} == {F64}
    out, (h_n, c_n) = m(torch.randn(5, 3, 3, dtype=F64))
    assert out.shape == (5, 3, 4) and h_n.shape == c_n.shape == (6, 3, 2)


def test_a_bidirectional_ln_rnn_with_lengths_0_and_t_passes_gradcheck():
    """Two layers, given h0, rows of lengths T = 3, 0 and 2: a length-0 row's h_n is its h0 and its out zeros,
    and dx, dh0 and every parameter's gradient agree with float64 central differences."""
    T, B, I, H = 3, 3, 2, 2
    torch.manual_seed(1)
    m = lt.RNN(I, H, num_layers=2, norm="ln", bidirectional=True, dtype=F64)
    names = [n for n, _ in m.named_parameters()]
    g = torch.Generator().manual_seed(2)
    params = [(p.detach() + torch.rand(p.shape, generator=g, dtype=F64) * 0.4 - 0.2).requires_grad_()
              for p in m.parameters()]
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    h0 = (torch.rand(4, B, H, dtype=F64, generator=g) - 0.5).requires_grad_()
    lengths = torch.tensor([3, 0, 2])

    def f(x, h0, *ps):
        return torch.func.functional_call(m, dict(zip(names, ps)), (x, h0), {"lengths": lengths})

    out, h_n = f(x, h0, *params)
    assert out.shape == (T, B, 4) and bool(torch.all(out[:, 1] == 0)) and bool(torch.all(out[2, 2] == 0))
    torch.testing.assert_close(h_n[:, 1], h0[:, 1], rtol=0, atol=0)
    assert torch.autograd.gradcheck(f, (x, h0, *params), fast_mode=True)


def test_a_batch_first_input_of_the_wrong_width_is_named_as_passed():
    """(B, T, I') = (2, 4, 5) to a batch_first module of I = 3: the refusal names (2, 4, 5), not the (4, 2, 5)
    the module turns it into."""
    m = lt.LSTM(3, 2, batch_first=True)
    _raises(ValueError, "LSTM: x must be (T, B, 3) ((B, T, 3) with batch_first=True), not (2, 4, 5).",
            lambda: m(torch.zeros(2, 4, 5)))


@pytest.mark.parametrize("bidirectional,rows,dims", [
    (True, 4, "num_layers * 2, batch, hidden_size"), (False, 2, "num_layers, batch, hidden_size")])
def test_an_hx_of_the_wrong_shape_is_refused_with_the_layout_of_its_rows(bidirectional, rows, dims):
    m = lt.RNN(3, 2, num_layers=2, bidirectional=bidirectional, dtype=F64)
    _raises(ValueError, f"RNN: hx holds a (1, 3, 2) state where ({rows}, 3, 2) was expected ({dims}).",
            lambda: m(torch.zeros(4, 3, 3, dtype=F64), torch.zeros(1, 3, 2, dtype=F64)))
