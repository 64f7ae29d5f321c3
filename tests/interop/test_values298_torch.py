"""lnrnn.torch's defaults, options and loading, fifteenth pass, judged by torch itself and by lnrnn/reference.py.

The judges: ``lnrnn.reference.lstm_forward`` (the NumPy spec, norm 'ln') for an LSTM built with no norm given,
its parameters read back in lnrnn's layout (weight_ih.T, weight_hh.T, bias_ih + bias_hh, the six LN vectors
drawn here away from 1 and 0), and its state_dict's keys and shapes written out; ``torch.nn.RNN`` (tanh, its
own drawn weights loaded strictly) for an RNN built with no nonlinearity given; ``torch.nn.LSTMCell`` for an
LSTMCell with norm=None, and the 'bn' refusal word for word; a bidirectional two-layer ``torch.nn.LSTM`` /
``nn.RNN`` with hx given over ragged rows of lengths 1 and T (T = 4 != B = 3, batch_first, lengths passed as a
list): out, h_n and the gradients of x, h0 and every weight; a two-layer bidirectional ``nn.LSTM``'s tensors
loaded through a run config with norm None (``_from_tensors``), in evaluation mode with dropout between layers.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn import reference  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values290_torch import _close  # noqa: E402

F64 = torch.float64


def test_an_lstm_built_without_a_norm_is_the_layer_normalized_spec():
    """I = 3, H = 4, T = 3, B = 2: keys and shapes written out; out, h_n, c_n as reference.lstm_forward(norm='ln')."""
    I, H, T, B = 3, 4, 3, 2
    torch.manual_seed(298)
    m = lt.LSTM(I, H, dtype=F64)
    G = 4 * H
    want = {"weight_ih_l0": (G, I), "weight_hh_l0": (G, H), "bias_ih_l0": (G,), "bias_hh_l0": (G,),
            "norm_ih_weight_l0": (G,), "norm_ih_bias_l0": (G,), "norm_hh_weight_l0": (G,), "norm_hh_bias_l0": (G,),
            "norm_cell_weight_l0": (H,), "norm_cell_bias_l0": (H,)}
    assert {k: tuple(v.shape) for k, v in m.state_dict().items()} == want
    assert m.cell == "ln-lstm" and m.norm == "ln"
    g = torch.Generator().manual_seed(3)
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.startswith("norm_") or name.startswith("bias_hh"):
                p.copy_(torch.randn(p.shape, dtype=F64, generator=g) * 0.5 + (1.0 if "weight" in name else 0.0))
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    h0, c0 = (torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2))
    with torch.no_grad():
        out, (h_n, c_n) = m(x, (h0, c0))
    P = {k: v.detach().numpy() for k, v in m.state_dict().items()}
    y, hT, cT, _ = reference.lstm_forward(
        x.numpy(), h0[0].numpy(), c0[0].numpy(), P["weight_ih_l0"].T, P["weight_hh_l0"].T,
        P["bias_ih_l0"] + P["bias_hh_l0"], P["norm_ih_weight_l0"], P["norm_ih_bias_l0"], P["norm_hh_weight_l0"],
        P["norm_hh_bias_l0"], P["norm_cell_weight_l0"], P["norm_cell_bias_l0"], "ln")
    np.testing.assert_allclose(out.numpy(), y, rtol=0, atol=1e-11)
    np.testing.assert_allclose(h_n[0].numpy(), hT, rtol=0, atol=1e-11)
    np.testing.assert_allclose(c_n[0].numpy(), cT, rtol=0, atol=1e-11)


def test_an_rnn_built_without_a_nonlinearity_is_nn_rnns_tanh():
    """nn.RNN's default is tanh: an lnrnn RNN given no nonlinearity loads its weights and gives its values."""
    torch.manual_seed(29)
    ref = torch.nn.RNN(3, 5, dtype=F64)
    ours = lt.RNN(3, 5, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    x = torch.randn(4, 2, 3, dtype=F64, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        _close(list(ours(x)), list(ref(x)))
    _raises(ValueError, "RNN: lnrnn's RNN cells use tanh: pass nonlinearity='tanh', not 'relu'.",
            lambda: lt.RNN(3, 5, nonlinearity="relu"))


def test_an_lstm_cell_takes_norm_none_as_nn_lstmcell_and_refuses_bn_word_for_word():
    """h', c' and the gradients of x, h, c against nn.LSTMCell (I = 3, H = 4, B = 2)."""
    torch.manual_seed(7)
    ref = torch.nn.LSTMCell(3, 4, dtype=F64)
    ours = lt.LSTMCell(3, 4, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(2)
    x0, h0, c0 = torch.randn(2, 3, dtype=F64, generator=g), *(torch.randn(2, 4, dtype=F64, generator=g)
                                                               for _ in range(2))
    w_h, w_c = (torch.randn(2, 4, dtype=F64, generator=g) for _ in range(2))
    got = []
    for m in (ours, ref):
        x, h, c = (t.clone().requires_grad_() for t in (x0, h0, c0))
        h1, c1 = m(x, (h, c))
        ((h1 * w_h).sum() + (c1 * w_c).sum()).backward()
        got.append([h1, c1, x.grad, h.grad, c.grad])
    _close(*got)
    _raises(ValueError, "LSTMCell: norm='bn' keeps batch statistics for every time step, and one step does not "
            "know its time: use norm='ln' or None, or a whole sequence (LSTM(norm='bn')).",
            lambda: lt.LSTMCell(3, 4, norm="bn"))


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_two_layer_bidirectional_batch_first_stack_over_lengths_1_and_t_is_nn_modules(kind):
    """T = 4, B = 3, lengths [4, 1, 3] as a list, hx given: out (zeros past each length), h_n and the gradients
    of x, h0 and every weight against nn.LSTM / nn.RNN over the same rows packed."""
    T, B, I, H, L = 4, 3, 3, 2, 2
    lengths = [4, 1, 3]
    torch.manual_seed(98)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=True,
                                                               batch_first=True, dtype=F64)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, bidirectional=True,
                                                   batch_first=True, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(4)
    x0 = torch.randn(B, T, I, dtype=F64, generator=g)
    hx0 = [torch.randn(2 * L, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    w_y = torch.randn(B, T, 2 * H, dtype=F64, generator=g)
    w_h = torch.randn(2 * L, B, H, dtype=F64, generator=g)
    got = []
    for m in (ours, ref):
        x = x0.clone().requires_grad_()
        hx = [s.clone().requires_grad_() for s in hx0]
        state = tuple(hx) if kind == "lstm" else hx[0]
        if m is ours:
            out, final = m(x, state, lengths=lengths)
        else:
            packed = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor(lengths), batch_first=True,
                                                             enforce_sorted=False)
            out, final = m(packed, state)
            out, _ = torch.nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=T)
        h_n = final[0] if kind == "lstm" else final
        ((out * w_y).sum() + (h_n * w_h).sum()).backward()
        got.append([out, h_n, x.grad, *(s.grad for s in hx), *(p.grad for p in m.parameters())])
    assert got[0][0].shape == (B, T, 2 * H) and got[0][1].shape == (2 * L, B, H)
    _close(*got)


def test_tensors_of_a_norm_none_run_config_load_as_nn_lstm_in_evaluation():
    """A config with norm None and dropout-free evaluation: a two-layer bidirectional nn.LSTM's weights as they
    are, out and (h_n, c_n) equal to nn.LSTM(dropout=0.5).eval()'s."""
    I, H = 3, 4
    torch.manual_seed(12)
    ref = torch.nn.LSTM(I, H, num_layers=2, bidirectional=True, dropout=0.5, dtype=F64).eval()
    tensors = {"rnn." + k: v.numpy() for k, v in ref.state_dict().items()}
    config = dict(cell="lstm", dtype="float64", forget_bias=1.0, input_size=I, hidden_size=H, num_layers=2,
                  norm=None, bidirectional=True)
    stack, head = it._from_tensors(config, tensors)
    assert head is None and not stack.training and stack.cell == "lstm"
    x = torch.randn(5, 2, I, dtype=F64, generator=torch.Generator().manual_seed(6))
    with torch.no_grad():
        out, (h_n, c_n) = stack(x)
        out_ref, (h_ref, c_ref) = ref(x)
    _close([out, h_n, c_n], [out_ref, h_ref, c_ref])
