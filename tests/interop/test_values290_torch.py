"""lnrnn.torch's autograd wiring, refusals and loading, fourteenth pass, judged against torch itself.

The judges: ``torch.nn.LSTM`` / ``nn.RNN`` / ``nn.LSTMCell`` / ``nn.RNNCell`` (float64, their own drawn weights,
loaded strictly, I = 3 != H = 4 or 5) for outputs, final states and every gradient of one weighted loss, with hx
given at two bidirectional layers and over a PackedSequence of ragged rows with hx not given; the error
``nn.LSTM.load_state_dict`` raises for the same dictionary (an extra key, a missing one); ``torch.library.opcheck``
of the layer op at T 2, B 2; ``nn.Linear``'s definition (x @ W.T + b) for a head built from a run's tensors;
the refusals (mixed dtypes listed tensor by tensor, float lengths, a backward through a layer run with
keep=False, a gradient of a ragged batch's c_n) word for word.

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
from test_values132_torch import _raises  # noqa: E402
from test_values224_torch import _run  # noqa: E402

F64 = torch.float64


def _pair(kind, I, H, **kw):
    torch.manual_seed(290)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, dtype=F64, **kw)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, norm=None, dtype=F64, **kw)
    ours.load_state_dict(ref.state_dict(), strict=True)
    return ref, ours


def _close(got, want):
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert a is not None and b is not None
        assert a.shape == b.shape
        torch.testing.assert_close(a, b, rtol=0, atol=1e-11)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_two_layer_bidirectional_stack_with_hx_gives_nn_modules_values_and_every_gradient(kind):
    """x (4, 3, 3), H = 4: out, the final states and the gradients of x, h0 (and c0) and every parameter."""
    T, B, I, H, L = 4, 3, 3, 4, 2
    ref, ours = _pair(kind, I, H, num_layers=L, bidirectional=True)
    g = torch.Generator().manual_seed(5)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    hx = [torch.randn(2 * L, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    _close(_run(ours, x, hx), _run(ref, x, hx))


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_packed_ragged_batch_without_hx_gives_nn_modules_values_and_gradients(kind):
    """Lengths 3, 1, 2 packed unsorted, parameters that take gradients: out, h_n and c_n (c_n + the guard's
    zeros) as nn.LSTM gives them, and the gradients of x and every parameter of a loss on out and h_n."""
    T, B, I, H = 3, 3, 3, 5
    ref, ours = _pair(kind, I, H)
    g = torch.Generator().manual_seed(9)
    x0 = torch.randn(T, B, I, dtype=F64, generator=g)
    w_out = torch.randn(T, B, H, dtype=F64, generator=g)
    w_h = torch.randn(1, B, H, dtype=F64, generator=g)
    lengths = torch.tensor([3, 1, 2])
    results = []
    for m in (ours, ref):
        m.zero_grad()
        x = x0.clone().requires_grad_()
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        out, final = m(packed)
        padded, _ = torch.nn.utils.rnn.pad_packed_sequence(out, total_length=T)
        final = list(final) if isinstance(final, tuple) else [final]
        ((padded * w_out).sum() + (final[0] * w_h).sum()).backward()
        results.append([padded, *final, x.grad, *(p.grad for p in m.parameters())])
    _close(*results)


def test_an_lstm_cells_c_n_of_a_ragged_batch_refuses_a_gradient_and_takes_a_zero_one():
    ref, ours = _pair("lstm", 3, 4)
    x = torch.randn(3, 2, 3, dtype=F64, generator=torch.Generator().manual_seed(2))
    out, (h_n, c_n) = ours(x, lengths=[3, 1])
    _raises(NotImplementedError, "lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
            "output sequence or h_n in the loss, or detach c_n.", lambda: c_n.sum().backward(retain_graph=True))
    ours.zero_grad()
    (h_n.sum() + 0 * c_n.sum()).backward()
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, torch.tensor([3, 1]), enforce_sorted=False)
    _, (h_ref, _) = ref(packed)
    h_ref.sum().backward()
    _close([p.grad for p in ours.parameters()], [p.grad for p in ref.parameters()])


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_cell_with_hx_gives_nn_cells_values_and_every_gradient(kind):
    I, H, B = 3, 5, 2
    torch.manual_seed(2901)
    ref = (torch.nn.LSTMCell if kind == "lstm" else torch.nn.RNNCell)(I, H, dtype=F64)
    ours = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(I, H, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(3)
    x0 = torch.randn(B, I, dtype=F64, generator=g)
    n = 2 if kind == "lstm" else 1
    hx0 = [torch.randn(B, H, dtype=F64, generator=g) for _ in range(n)]
    w = [torch.randn(B, H, dtype=F64, generator=g) for _ in range(n)]
    results = []
    for m in (ours, ref):
        x = x0.clone().requires_grad_()
        hx = [s.clone().requires_grad_() for s in hx0]
        out = m(x, tuple(hx) if n == 2 else hx[0])
        assert isinstance(out, tuple) == (n == 2)
        out = list(out) if n == 2 else [out]
        sum((o * wi).sum() for o, wi in zip(out, w)).backward()
        results.append([*out, x.grad, *(s.grad for s in hx), *(p.grad for p in m.parameters())])
    _close(*results)


def test_opcheck_of_the_layer_op_and_its_fake_at_tiny_shapes():
    """The op's fake (shapes only) must run on fake tensors: opcheck runs the op under FakeTensorMode."""
    T, B, I, H = 2, 2, 3, 2
    ref, ours = _pair("rnn", I, H)
    g = torch.Generator().manual_seed(6)
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    h0 = torch.randn(B, H, dtype=F64, generator=g).requires_grad_()
    params = [p.detach().clone().requires_grad_() for p in ours.layer_params(0)]
    torch.library.opcheck(lt.layer_forward, (x, [h0], params, [], None, "rnn", False, True))


def test_a_backward_through_a_layer_run_with_keep_false_is_refused_word_for_word():
    T, B, I, H = 2, 2, 3, 2
    _, ours = _pair("rnn", I, H)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0 = torch.zeros(B, H, dtype=F64)
    params = [p.detach().clone() for p in ours.layer_params(0)]
    y, final, res, _ = lt.layer_forward(x, [h0], params, [], None, "rnn", False, False)
    assert res == []
    _raises(RuntimeError, "this lnrnn layer ran with keep=False (no backward was expected): run it with "
            "gradients enabled.", lambda: y.sum().backward())


def test_mixed_dtypes_are_refused_listing_every_tensor():
    """A float32 x into a float64 LSTM: the zero states take x's dtype, so four tensors are listed."""
    m = lt.LSTM(3, 5, dtype=F64)
    _raises(TypeError, "LSTM: mixed dtypes (x torch.float32, hx[0] torch.float32, hx[1] torch.float32, weights "
            "torch.float64): pass every tensor in the module's dtype (x.to(m.weight_ih_l0.dtype)).",
            lambda: m(torch.zeros(2, 1, 3, dtype=torch.float32)))


def test_float_lengths_are_refused_naming_the_rnn():
    m = lt.RNN(3, 4, dtype=F64)
    _raises(TypeError, "RNN: lengths must be whole numbers (an integer tensor or a list of ints), not "
            "torch.float64: a length of 1.5 steps means nothing.",
            lambda: m(torch.zeros(2, 2, 3, dtype=F64), lengths=torch.tensor([1.5, 2.0], dtype=F64)))


@pytest.mark.parametrize("change", ["extra", "missing"])
def test_a_strict_load_refuses_what_nn_lstm_refuses_with_its_sentence(change):
    """An extra key or a missing one: the same error as nn.LSTM's own (both classes are named LSTM)."""
    ref, ours = _pair("lstm", 3, 4, num_layers=2)
    sd = dict(ref.state_dict())
    if change == "extra":
        sd["weight_ih_l2"] = torch.zeros(16, 4, dtype=F64)
    else:
        del sd["bias_hh_l1"]
    with pytest.raises(RuntimeError) as want:
        torch.nn.LSTM(3, 4, num_layers=2, dtype=F64).load_state_dict(sd, strict=True)
    with pytest.raises(RuntimeError) as got:
        ours.load_state_dict(sd, strict=True)
    assert str(got.value) == str(want.value)
    assert ("Unexpected" if change == "extra" else "Missing") in str(got.value)


def test_a_stack_and_head_from_tensors_are_nn_rnn_and_nn_linear():
    """Head weight (2, 4): the head maps H = 4 outputs to 2, x @ W.T + b."""
    I, H, O = 3, 4, 2
    ref, _ = _pair("rnn", I, H)
    g = np.random.default_rng(290)
    W, b = g.standard_normal((O, H)), g.standard_normal(O)
    tensors = {"rnn." + k: v.numpy() for k, v in ref.state_dict().items()}
    tensors.update({"head.weight": W, "head.bias": b})
    config = dict(cell="rnn", dtype="float64", forget_bias=1.0, input_size=I, hidden_size=H, num_layers=1,
                  norm=None)
    stack, head = it._from_tensors(config, tensors)
    x = torch.randn(3, 2, I, dtype=F64, generator=torch.Generator().manual_seed(8))
    with torch.no_grad():
        out, h_n = stack(x)
        out_ref, h_ref = ref(x)
        _close([out, h_n], [out_ref, h_ref])
        want = out_ref.numpy() @ W.T + b
        np.testing.assert_allclose(head(out).numpy(), want, rtol=0, atol=1e-12)
