"""lnrnn.torch's modules, layer op and loaders, nineteenth pass, judged by torch itself and by lnrnn/reference.py.

The judges: ``reference.lstm_forward`` (norm 'ln') for an LN-LSTM stack's out, h_n and c_n with h0, c0 and every
norm parameter set away from its initial value (T 4, B 3, I 2, H 5); ``reference.bn_rnn_forward`` for a BN-RNN
training call's outputs and its running statistics (step 0's also by the momentum formula written out);
``reference.bn_lstm_forward`` for a BN-LSTM's out, h_n and c_n with gradients on, and the documented refusal of a
non-zero dL/dc_n word for word; ``torch.nn.LSTM`` / ``nn.RNN`` / ``nn.LSTMCell`` / ``nn.RNNCell`` (float64, their
own weights loaded strictly) for outputs, final states and every gradient of a plain stack, of a bidirectional
stack over a packed batch of lengths (3, 1, 2) with T = B = 3, and of cells with I != H (the RNN cell's h given
as one tensor); the refusals of a float16 input, of tensors on the meta device and of a cell's norm='bn' word for
word; ``_from_tensors`` (what ``load_exported`` and ``from_run`` build) for an LSTM config with and without a head:
the class, nn.LSTM's values, the head's x @ W.T + b, and the device the stack and head are moved to.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence  # noqa: E402

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn import reference  # noqa: E402
from lnrnn.config import BN_MOMENTUM  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values224_torch import _run  # noqa: E402
from test_values290_torch import _close, _pair  # noqa: E402
from test_values334_torch import check_cell_with_hx  # noqa: E402
from test_values309_torch import _bn_rnn, _spec_args, _stats, _weighted  # noqa: E402

F64 = torch.float64
T, B, I, H = 4, 3, 2, 5


def _np(t):
    return t.detach().numpy()


def _randomize(m, seed):
    """Every parameter of m drawn afresh (gains near 1), so no gain or bias sits at its initial value."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in m.named_parameters():
            r = torch.randn(p.shape, dtype=p.dtype, generator=g)
            p.copy_(1.0 + 0.3 * r if "norm_" in name and name.split("_")[-2] == "weight" else 0.4 * r)


# ---- against lnrnn/reference.py ----

def test_an_ln_lstm_stack_with_h0_c0_is_the_reference_ln_lstm():
    """norm='ln': out (T,B,H), h_n and c_n (1,B,H) as reference.lstm_forward(norm='ln') with Wx = weight_ih_l0.T,
    Wh = weight_hh_l0.T, b = bias_ih_l0 + bias_hh_l0 and the six LayerNorm gains and biases read by name."""
    torch.manual_seed(359)
    m = lt.LSTM(I, H, norm="ln", dtype=F64)
    assert m.cell == "ln-lstm"
    _randomize(m, 1)
    g = torch.Generator().manual_seed(2)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    h0, c0 = (torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2))
    with torch.no_grad():
        out, (h_n, c_n) = m(x, (h0, c0))
    p = {n: _np(getattr(m, f"{n}_l0")) for n in ("norm_ih_weight", "norm_ih_bias", "norm_hh_weight",
                                                   "norm_hh_bias", "norm_cell_weight", "norm_cell_bias")}
    y, hT, cT, _ = reference.lstm_forward(x.numpy(), h0[0].numpy(), c0[0].numpy(), _np(m.weight_ih_l0).T,
                                          _np(m.weight_hh_l0).T, _np(m.bias_ih_l0 + m.bias_hh_l0),
                                          p["norm_ih_weight"], p["norm_ih_bias"], p["norm_hh_weight"],
                                          p["norm_hh_bias"], p["norm_cell_weight"], p["norm_cell_bias"], "ln")
    assert out.shape == (T, B, H) and h_n.shape == (1, B, H) and c_n.shape == (1, B, H)
    np.testing.assert_allclose(_np(out), y, rtol=0, atol=1e-11)
    np.testing.assert_allclose(_np(h_n[0]), hT, rtol=0, atol=1e-11)
    np.testing.assert_allclose(_np(c_n[0]), cT, rtol=0, atol=1e-11)


def test_a_bn_rnn_training_call_updates_the_running_statistics_as_the_reference():
    """T 3, B 4, no lengths: out as reference.bn_rnn_forward in training, and the four running statistics (3 rows,
    grown from 1) as its in-place updates; step 0's x statistics by hand: rm = (1 - m) * 0 + m * mean,
    rv = (1 - m) * 1 + m * unbiased variance of x[0] @ Wx over the 4 rows, m = BN_MOMENTUM."""
    I_, H_, B_, T_ = 3, 4, 4, 3
    m = _bn_rnn(I_, H_, 359)
    m.train()
    x = torch.randn(T_, B_, I_, dtype=F64, generator=torch.Generator().manual_seed(3))
    Wx, Wh, b, gx, gh = _spec_args(m)
    stats = [np.zeros((T_, H_)), np.ones((T_, H_)), np.zeros((T_, H_)), np.ones((T_, H_))]
    out, h_n = m(x)
    y, hT, _ = reference.bn_rnn_forward(x.numpy(), np.zeros((B_, H_)), Wx, Wh, b, gx, gh, *stats, True)
    np.testing.assert_allclose(_np(out), y, rtol=0, atol=1e-11)
    np.testing.assert_allclose(_np(h_n[0]), hT, rtol=0, atol=1e-11)
    got = _stats(m)
    xw0 = x[0].numpy() @ Wx
    mom = BN_MOMENTUM
    np.testing.assert_allclose(got[0][0], mom * xw0.mean(axis=0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1][0], (1 - mom) + mom * xw0.var(axis=0, ddof=1), rtol=0, atol=1e-12)
    assert np.abs(got[0][0]).max() > 1e-3
    for a, e in zip(got, stats):
        assert a.shape == (T_, H_)
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-12)


def test_a_bn_lstm_runs_with_gradients_as_the_reference_and_refuses_a_c_n_gradient_word_for_word():
    """BN-LSTM in training, x and every parameter requiring gradients, h0 and c0 given: out, h_n and c_n as
    reference.bn_lstm_forward (the forward with gradients on passes c_n through the guard); a loss on c_n raises
    the documented NotImplementedError word for word."""
    torch.manual_seed(360)
    m = lt.LSTM(I, H, norm="bn", dtype=F64)
    _randomize(m, 4)
    m.train()
    g = torch.Generator().manual_seed(5)
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    h0, c0 = (torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2))
    ln = {n: _np(getattr(m, f"{n}_l0")) for n in ("norm_ih_weight", "norm_hh_weight", "norm_cell_weight",
                                                   "norm_cell_bias")}
    G = 4 * H
    stats = [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)),
             np.ones((T, H))]
    y, hT, cT, _ = reference.bn_lstm_forward(x.detach().numpy(), h0[0].numpy(), c0[0].numpy(),
                                             _np(m.weight_ih_l0).T, _np(m.weight_hh_l0).T,
                                             _np(m.bias_ih_l0 + m.bias_hh_l0), ln["norm_ih_weight"],
                                             ln["norm_hh_weight"], ln["norm_cell_weight"], ln["norm_cell_bias"],
                                             *stats, True)
    out, (h_n, c_n) = m(x, (h0, c0))
    np.testing.assert_allclose(_np(out), y, rtol=0, atol=1e-11)
    np.testing.assert_allclose(_np(h_n[0]), hT, rtol=0, atol=1e-11)
    np.testing.assert_allclose(_np(c_n[0]), cT, rtol=0, atol=1e-11)
    _raises(NotImplementedError, "lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
            "output sequence or h_n in the loss, or detach c_n.",
            lambda: _weighted([c_n], 6).backward())


# ---- against torch.nn ----

@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_plain_stack_with_hx_gives_nn_modules_values_and_every_gradient(kind):
    """T 4, B 3, I 2, H 5, one layer, hx given: out, the final states and the gradients of x, hx and every
    parameter of a weighted loss on out and h_n, as torch.nn.LSTM / nn.RNN give them."""
    ref, ours = _pair(kind, I, H)
    g = torch.Generator().manual_seed(8)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    hx = [torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    _close(_run(ours, x, hx), _run(ref, x, hx))


def test_a_bidirectional_lstm_over_packed_lengths_with_as_many_steps_as_rows_is_nn_lstms():
    """T = B = 3, lengths (3, 1, 2) packed unsorted: the packed output, h_n and c_n (2, 3, 5) and the gradients
    of x and every parameter of a loss on the packed data and h_n, as a bidirectional nn.LSTM gives them."""
    ref, ours = _pair("lstm", I, H, bidirectional=True)
    x0 = torch.randn(3, 3, I, dtype=F64, generator=torch.Generator().manual_seed(9))
    lengths = torch.tensor([3, 1, 2])

    def run(m):
        x = x0.clone().requires_grad_()
        out, (h_n, c_n) = m(pack_padded_sequence(x, lengths, enforce_sorted=False))
        (_weighted([out.data], 10) + _weighted([h_n], 11)).backward()
        return [out.data, h_n, c_n, x.grad, *(p.grad for p in m.parameters())]

    got, want = run(ours), run(ref)
    assert got[0].shape == (3 + 1 + 2, 2 * H) and got[1].shape == (2, 3, H)
    _close(got, want)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_cells_with_fewer_inputs_than_units_and_hx_given_are_nn_cells(kind):
    """I 2 != H 5, B 3, h (and c) given (the RNN cell's h as one tensor): h' (c') and the gradients of the input,
    the states and every parameter, as nn.LSTMCell / nn.RNNCell give them."""
    check_cell_with_hx(kind, B, I, H, seed=12, weights_seed=13)


# ---- refusals ----

def test_a_float16_input_is_refused_naming_it_and_the_dtypes_the_kernels_run():
    m = lt.LSTM(I, H, norm=None, dtype=F64)
    _raises(TypeError, "LSTM: x is torch.float16, but lnrnn's kernels run float32 or float64 only: pass x.float() "
            "(and a float32 module) or .double().", lambda: m(torch.zeros(T, B, I, dtype=torch.float16)))


def test_an_input_on_the_meta_device_is_refused_listing_every_tensors_device():
    m = lt.RNN(I, H, norm="ln", dtype=F64)
    x = torch.empty(T, B, I, dtype=F64, device="meta")
    _raises(RuntimeError, "RNN: tensors on x on meta, hx[0] on meta, weights on cpu: lnrnn runs on the CPU or on "
            "one CUDA device; move the input and states to the module's device (x.to(m.weight_ih_l0.device)).",
            lambda: m(x))


def test_a_cells_norms_bn_refused_with_its_reason_none_taken_and_others_refused():
    for cls, seq in ((lt.LSTMCell, "LSTM"), (lt.RNNCell, "RNN")):
        what = cls.__name__
        _raises(ValueError, f"{what}: norm='bn' keeps batch statistics for every time step, and one step does not "
                f"know its time: use norm='ln' or None, or a whole sequence ({seq}(norm='bn')).",
                lambda: cls(I, H, norm="bn"))
        _raises(ValueError, f"{what}: norm must be 'ln' or None, not 'layer'.", lambda: cls(I, H, norm="layer"))
        assert cls(I, H, norm="none", dtype=F64).norm is None
        assert cls(I, H, norm=None, dtype=F64).norm is None


# ---- trained weights ----

def _lstm_tensors(with_head):
    ref, _ = _pair("lstm", I, H)
    tensors = {"rnn." + k: v.numpy() for k, v in ref.state_dict().items()}
    g = np.random.default_rng(359)
    W, b = g.standard_normal((3, H)), g.standard_normal(3)
    if with_head:
        tensors.update({"head.weight": W, "head.bias": b})
    config = dict(cell="lstm", dtype="float64", forget_bias=1.0, input_size=I, hidden_size=H, num_layers=1,
                  norm=None)
    return ref, tensors, config, W, b


def test_an_lstm_config_with_a_head_gives_nn_lstm_and_the_heads_linear_map():
    """cell 'lstm' -> an lnrnn.torch.LSTM in evaluation, out and (h_n, c_n) as nn.LSTM's; the head (3 outputs of
    H = 5) an nn.Linear giving out @ W.T + b; without head tensors the head is None."""
    ref, tensors, config, W, b = _lstm_tensors(True)
    stack, head = it._from_tensors(config, tensors)
    assert type(stack) is lt.LSTM and not stack.training
    assert isinstance(head, torch.nn.Linear) and (head.in_features, head.out_features) == (H, 3)
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(14))
    with torch.no_grad():
        out, (h_n, c_n) = stack(x)
        out_ref, (h_ref, c_ref) = ref(x)
        _close([out, h_n, c_n], [out_ref, h_ref, c_ref])
        np.testing.assert_allclose(head(out).numpy(), out_ref.numpy() @ W.T + b, rtol=0, atol=1e-12)
    _, tensors, config, _, _ = _lstm_tensors(False)
    stack, head = it._from_tensors(config, tensors)
    assert type(stack) is lt.LSTM and head is None


def test_a_device_given_moves_the_stack_and_the_head_and_none_leaves_them_on_the_cpu():
    _, tensors, config, _, _ = _lstm_tensors(True)
    stack, head = it._from_tensors(config, tensors, device="meta")
    assert {p.device.type for p in [*stack.parameters(), *head.parameters()]} == {"meta"}
    stack, head = it._from_tensors(config, tensors)
    assert {p.device.type for p in [*stack.parameters(), *head.parameters()]} == {"cpu"}
