"""lnrnn.torch's modules and layer op, sixteenth pass, judged by torch itself and by lnrnn/reference.py.

The judges: ``torch.nn.LSTM`` / ``nn.RNN`` / ``nn.LSTMCell`` / ``nn.RNNCell`` (float64 and float32, their own
drawn weights loaded strictly) for outputs, final states and the gradients of x, the states and every parameter:
in evaluation mode with dropout between two layers, over a PackedSequence of rows of lengths 1 and T against lnrnn's
``lengths`` tensor (batch_first on and off, h0 given), an unbatched (T, I) input to a batch_first stack, an
unbatched LSTMCell step without hx and an RNNCell step with h given; ``reference.bn_rnn_forward`` (the NumPy spec)
for the BN-RNN's outputs and running statistics after one and two training calls (the momentum formula written
out for step 0), for the layer op's updated statistics (its input buffers left as passed) and for evaluation past
the stored rows (the buffers keep their two rows); torch.autograd.gradcheck of an LN-LSTM (evaluation) and a
BN-LSTM (training) over lengths 1 and T; float16 refused word for word for a module and for an input.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence  # noqa: E402

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn import reference  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values224_torch import _run  # noqa: E402
from test_values290_torch import _close, _pair  # noqa: E402

F64 = torch.float64


def _weighted(tensors, seed):
    g = torch.Generator().manual_seed(seed)
    return sum((t * torch.randn(t.shape, generator=g, dtype=t.dtype)).sum() for t in tensors)


# ---- refusals ----

def test_float16_is_refused_word_for_word_for_a_module_and_for_an_input():
    _raises(TypeError, "RNN: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 or "
            "torch.float64, not torch.float16.", lambda: lt.RNN(3, 4, dtype=torch.float16))
    _raises(TypeError, "LSTM: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 or "
            "torch.float64, not torch.float16.", lambda: lt.LSTM(3, 4, norm="bn", dtype=torch.float16))
    m = lt.LSTM(3, 4, dtype=F64)
    _raises(TypeError, "LSTM: x is torch.float16, but lnrnn's kernels run float32 or float64 only: pass "
            "x.float() (and a float32 module) or .double().", lambda: m(torch.zeros(2, 1, 3, dtype=torch.float16)))


# ---- against torch's own modules ----

def test_evaluation_mode_with_dropout_gives_nn_lstms_values_and_every_gradient():
    """Two layers, dropout 0.4 (off in eval), batch_first, hx given: out, h_n, c_n and every gradient."""
    T, B, I, H, L = 4, 3, 3, 5, 2
    ref, ours = _pair("lstm", I, H, num_layers=L, dropout=0.4, batch_first=True)
    ref.eval()
    ours.eval()
    g = torch.Generator().manual_seed(309)
    x = torch.randn(B, T, I, dtype=F64, generator=g)
    hx = [torch.randn(L, B, H, dtype=F64, generator=g) for _ in range(2)]
    _close(_run(ours, x, hx), _run(ref, x, hx))


def test_a_float32_module_holds_float32_tensors_and_is_nn_lstm_in_float32():
    for m in (lt.LSTM(3, 4, norm=None, dtype=torch.float32), lt.RNN(3, 4, norm="bn", dtype=torch.float32),
              lt.LSTMCell(3, 4, dtype=torch.float32)):
        assert {n: t.dtype for n, t in m.state_dict().items()} == {n: torch.float32 for n in m.state_dict()}
    torch.manual_seed(31)
    ref = torch.nn.LSTM(3, 4, num_layers=2, dtype=torch.float32)
    ours = lt.LSTM(3, 4, num_layers=2, norm=None, dtype=torch.float32)
    ours.load_state_dict(ref.state_dict(), strict=True)
    x = torch.randn(5, 2, 3)
    got, (h, c) = ours(x)
    want, (wh, wc) = ref(x)
    assert got.dtype == h.dtype == c.dtype == torch.float32
    for a, b in ((got, want), (h, wh), (c, wc)):
        torch.testing.assert_close(a, b, rtol=0, atol=2e-6)


@pytest.mark.parametrize("kind,batch_first", [("rnn", True), ("lstm", False), ("rnn", False)])
def test_lengths_1_and_t_with_h0_against_nn_modules_over_a_packed_sequence(kind, batch_first):
    """lengths (1, T, 2) as a tensor, h0 (and c0) given: out (zeros past each length), h_n and the gradients
    of x, h0 (c0) and every parameter of a loss on out and h_n, as nn.LSTM / nn.RNN give them packed."""
    T, B, I, H = 4, 3, 3, 5
    ref, ours = _pair(kind, I, H, batch_first=batch_first)
    g = torch.Generator().manual_seed(3)
    lengths = torch.tensor([1, T, 2])
    x = torch.randn((B, T, I) if batch_first else (T, B, I), dtype=F64, generator=g)
    hx = [torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]

    def run(m, packed):
        xs = x.clone().requires_grad_()
        st = [s.clone().requires_grad_() for s in hx]
        arg = pack_padded_sequence(xs, lengths, batch_first=batch_first, enforce_sorted=False) if packed else xs
        out, final = m(arg, tuple(st) if kind == "lstm" else st[0], **({} if packed else {"lengths": lengths}))
        if packed:
            out = pad_packed_sequence(out, batch_first=batch_first, total_length=T)[0]
        h_n = final[0] if kind == "lstm" else final
        (_weighted([out], 1) + _weighted([h_n], 2)).backward()
        return [out, h_n, xs.grad, *(s.grad for s in st), *(p.grad for p in m.parameters())]

    _close(run(ours, False), run(ref, True))


def test_an_unbatched_input_to_a_batch_first_stack_is_nn_lstms():
    """x (T, I) with batch_first=True, hx (L, H): out (T, H) as nn.LSTM (batch_first does not apply)."""
    T, I, H, L = 5, 3, 4, 2
    ref, ours = _pair("lstm", I, H, num_layers=L, batch_first=True)
    g = torch.Generator().manual_seed(4)
    x = torch.randn(T, I, dtype=F64, generator=g)
    hx = [torch.randn(L, H, dtype=F64, generator=g) for _ in range(2)]
    got = _run(ours, x, hx)
    assert got[0].shape == (T, H) and got[1].shape == (L, H)
    _close(got, _run(ref, x, hx))


def _cell_pair(kind, I, H):
    torch.manual_seed(309)
    ref = (torch.nn.LSTMCell if kind == "lstm" else torch.nn.RNNCell)(I, H, dtype=F64)
    ours = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(I, H, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    return ref, ours


def test_an_unbatched_lstm_cell_step_without_hx_is_nn_lstmcells():
    """input (3,), no hx, H = 4: h', c' (4,) and the gradients of the input and every parameter."""
    ref, ours = _cell_pair("lstm", 3, 4)
    x0 = torch.tensor([0.7, -1.3, 0.4], dtype=F64)

    def run(m):
        x = x0.clone().requires_grad_()
        h, c = m(x)
        (_weighted([h], 5) + _weighted([c], 6)).backward()
        return [h, c, x.grad, *(p.grad for p in m.parameters())]

    got = run(ours)
    assert got[0].shape == got[1].shape == (4,)
    _close(got, run(ref))


def test_an_rnn_cell_step_with_h_given_is_nn_rnncells():
    """input (2, 3), h (2, 4): h' and the gradients of the input, h and every parameter."""
    ref, ours = _cell_pair("rnn", 3, 4)
    g = torch.Generator().manual_seed(8)
    x0, h0 = torch.randn(2, 3, dtype=F64, generator=g), torch.randn(2, 4, dtype=F64, generator=g)

    def run(m):
        x, h = x0.clone().requires_grad_(), h0.clone().requires_grad_()
        out = m(x, h)
        _weighted([out], 9).backward()
        return [out, x.grad, h.grad, *(p.grad for p in m.parameters())]

    _close(run(ours), run(ref))


# ---- BatchNorm against reference.py ----

def _bn_rnn(I, H, seed):
    torch.manual_seed(seed)
    m = lt.RNN(I, H, norm="bn", dtype=F64)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        m.bias_ih_l0.copy_(0.3 * torch.randn(H, dtype=F64, generator=g))
        m.norm_ih_weight_l0.copy_(0.5 + torch.rand(H, dtype=F64, generator=g))
        m.norm_hh_weight_l0.copy_(0.5 + torch.rand(H, dtype=F64, generator=g))
    return m


def _spec_args(m):
    """Wx, Wh, b, gx, gh as NumPy arrays in lnrnn's layout, read off the PyTorch-layout parameters."""
    return (m.weight_ih_l0.detach().numpy().T, m.weight_hh_l0.detach().numpy().T,
            (m.bias_ih_l0 + m.bias_hh_l0).detach().numpy(), m.norm_ih_weight_l0.detach().numpy(),
            m.norm_hh_weight_l0.detach().numpy())


def _stats(m):
    return [getattr(m, f"norm_{s}_running_{k}_l0").detach().numpy().copy()
            for s in ("ih", "hh") for k in ("mean", "var")]


def test_bn_rnn_running_statistics_after_one_and_two_training_calls_follow_the_momentum_formula():
    """Call 1: T = 3, lengths (1, 3, 2, 3, 1), h0 given; call 2: T = 4 (one row grown, repeating the last),
    no lengths. After each: out (zeros past the lengths) and h_n as reference.bn_rnn_forward, the four
    statistics as its in-place updates; step 0's x statistics after call 1 written out by the formula
    rm = 0.9 * 0 + 0.1 * mean, rv = 0.9 * 1 + 0.1 * unbiased variance over the running rows."""
    I, H, B = 3, 4, 5
    m = _bn_rnn(I, H, 309)
    m.train()
    g = torch.Generator().manual_seed(12)
    x1, h0 = torch.randn(3, B, I, dtype=F64, generator=g), torch.randn(1, B, H, dtype=F64, generator=g)
    x2 = torch.randn(4, B, I, dtype=F64, generator=g)
    lengths = np.array([1, 3, 2, 3, 1])
    Wx, Wh, b, gx, gh = _spec_args(m)
    stats = [np.zeros((3, H)), np.ones((3, H)), np.zeros((3, H)), np.ones((3, H))]

    out, h_n = m(x1, h0, lengths=torch.tensor(lengths))
    y, hT, _ = reference.bn_rnn_forward(x1.numpy(), h0[0].numpy(), Wx, Wh, b, gx, gh, *stats, True,
                                        lengths=lengths)
    mask = (np.arange(3)[:, None] < lengths[None, :])[:, :, None]
    np.testing.assert_allclose(out.detach().numpy(), y * mask, rtol=0, atol=1e-11)
    np.testing.assert_allclose(h_n[0].detach().numpy(), [y[n - 1, r] for r, n in enumerate(lengths)], rtol=0,
                               atol=1e-11)
    xw0 = x1[0].numpy() @ Wx                                  # every row runs step 0
    by_hand = [0.1 * xw0.mean(axis=0), 0.9 + 0.1 * xw0.var(axis=0, ddof=1)]
    got = _stats(m)
    np.testing.assert_allclose(got[0][0], by_hand[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1][0], by_hand[1], rtol=0, atol=1e-12)
    for a, e in zip(got, stats):
        assert a.shape == (3, H)
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-12)

    out2, _ = m(x2)
    stats = [np.concatenate([s, s[-1:]]) for s in stats]
    y2, _, _ = reference.bn_rnn_forward(x2.numpy(), np.zeros((B, H)), Wx, Wh, b, gx, gh, *stats, True)
    np.testing.assert_allclose(out2.detach().numpy(), y2, rtol=0, atol=1e-11)
    for a, e in zip(_stats(m), stats):
        assert a.shape == (4, H)
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-12)


def test_the_layer_op_returns_updated_statistics_and_leaves_its_buffers_as_passed():
    """lnrnn::layer_forward (training, bn-rnn, T = 3, B = 4) on drawn statistics: the buffers passed are
    unchanged and the returned ones are reference.bn_rnn_forward's in-place updates of copies."""
    I, H, T, B = 3, 4, 3, 4
    m = _bn_rnn(I, H, 41)
    g = torch.Generator().manual_seed(13)
    x, h0 = torch.randn(T, B, I, dtype=F64, generator=g), torch.randn(B, H, dtype=F64, generator=g)
    bufs = [torch.randn(T, H, dtype=F64, generator=g), 0.5 + torch.rand(T, H, dtype=F64, generator=g),
            torch.randn(T, H, dtype=F64, generator=g), 0.5 + torch.rand(T, H, dtype=F64, generator=g)]
    before = [b.clone() for b in bufs]
    with torch.no_grad():
        y, final, res, new = it.layer_forward(x, [h0], m.layer_params(0), bufs, None, "bn-rnn", True, False)
    for a, e in zip(bufs, before):
        assert torch.equal(a, e)
    want = [b.numpy().copy() for b in before]
    y_ref, h_ref, _ = reference.bn_rnn_forward(x.numpy(), h0.numpy(), *_spec_args(m), *want, True)
    np.testing.assert_allclose(y.numpy(), y_ref, rtol=0, atol=1e-11)
    np.testing.assert_allclose(final[0].numpy(), h_ref, rtol=0, atol=1e-11)
    assert res == [] and len(new) == 4
    for a, e in zip(new, want):
        np.testing.assert_allclose(a.numpy(), e, rtol=0, atol=1e-12)


def test_bn_evaluation_past_the_stored_rows_reads_the_last_row_and_keeps_the_buffers():
    """Statistics of 2 rows loaded, eval on T = 4 with h0: out and h_n as reference.bn_rnn_forward(training=False)
    (steps 2 and 3 read row 1); the buffers stay (2, H) and unchanged, in evaluation as in a no-grad call."""
    I, H, B, T = 3, 4, 3, 4
    m = _bn_rnn(I, H, 77)
    g = torch.Generator().manual_seed(14)
    sd = m.state_dict()
    for s in ("ih", "hh"):
        sd[f"norm_{s}_running_mean_l0"] = torch.randn(2, H, dtype=F64, generator=g)
        sd[f"norm_{s}_running_var_l0"] = 0.5 + torch.rand(2, H, dtype=F64, generator=g)
    m.load_state_dict(sd, strict=True)
    m.eval()
    stored = _stats(m)
    x, h0 = torch.randn(T, B, I, dtype=F64, generator=g), torch.randn(1, B, H, dtype=F64, generator=g)
    out, h_n = m(x, h0)
    y, hT, _ = reference.bn_rnn_forward(x.numpy(), h0[0].numpy(), *_spec_args(m), *[s.copy() for s in stored],
                                        False)
    np.testing.assert_allclose(out.detach().numpy(), y, rtol=0, atol=1e-11)
    np.testing.assert_allclose(h_n[0].detach().numpy(), hT, rtol=0, atol=1e-11)
    for a, e in zip(_stats(m), stored):
        assert a.shape == (2, H)
        assert np.array_equal(a, e)


# ---- finite differences ----

def _gradcheck_module(m, x, hx, lengths):
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]

    def f(x, *rest):
        st, ps = rest[:len(hx)], rest[len(hx):]
        out, final = torch.func.functional_call(m, dict(zip(names, ps)), (x, tuple(st)), {"lengths": lengths})
        return out, final[0]

    inputs = (x.requires_grad_(), *(s.requires_grad_() for s in hx), *params)
    assert torch.autograd.gradcheck(f, inputs, eps=1e-6, atol=1e-6)


def test_gradcheck_of_an_ln_lstm_in_evaluation_over_lengths_1_and_t():
    """T = 3, B = 2, I = 2, H = 2, batch_first, lengths (3, 1), h0 and c0 given: every input and parameter."""
    torch.manual_seed(5)
    m = lt.LSTM(2, 2, norm="ln", batch_first=True, dtype=F64)
    m.eval()
    g = torch.Generator().manual_seed(15)
    x = torch.randn(2, 3, 2, dtype=F64, generator=g)
    hx = [torch.randn(1, 2, 2, dtype=F64, generator=g) for _ in range(2)]
    _gradcheck_module(m, x, hx, torch.tensor([3, 1]))


def test_gradcheck_of_a_bn_lstm_in_training_over_lengths_1_and_t():
    """T = 3, B = 3, I = 2, H = 2, time-major, lengths (1, 3, 3), h0 and c0 given (batch statistics)."""
    torch.manual_seed(6)
    m = lt.LSTM(2, 2, norm="bn", dtype=F64)
    m.train()
    g = torch.Generator().manual_seed(16)
    x = torch.randn(3, 3, 2, dtype=F64, generator=g)
    hx = [torch.randn(1, 3, 2, dtype=F64, generator=g) for _ in range(2)]
    _gradcheck_module(m, x, hx, torch.tensor([1, 3, 3]))
