"""lnrnn.torch as a PyTorch user sees it, against torch's own modules and the definitions: the cells' initial
parameters follow torch.manual_seed (as nn.LSTMCell's do) and hold forget_bias = 1 by default; a plain RNNCell
loads nn.RNNCell's state_dict strictly and gives its step and gradients, batched and unbatched with h given; an
unbatched LSTMCell with (h, c) given is nn.LSTMCell's; a plain bidirectional stack over ragged rows (T = B) is
nn.LSTM over the packed rows, values and gradients; rows of length 0 return h0's values in tensors of their own;
torch.library.opcheck of a BatchNorm layer op in eval with a backward wanted and in train with lengths; norm and
extra_repr as the arguments given; and the refusals, word for word: an input of the wrong width, mixed dtypes
(every tensor named with its dtype), an LSTM given one state and an RNN given two."""
import os
import re

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64
pack = torch.nn.utils.rnn.pack_padded_sequence
unpack = torch.nn.utils.rnn.pad_packed_sequence


def _close(a, e):
    torch.testing.assert_close(a, e, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", [lt.LSTMCell, lt.RNNCell])
def test_a_cells_initial_parameters_follow_torch_manual_seed(cls):
    def draw(seed):
        torch.manual_seed(seed)
        return [p.detach().clone() for p in cls(3, 4, norm="ln", dtype=F64).parameters()]

    a, b, c = draw(3), draw(3), draw(4)
    for p, q in zip(a, b):
        torch.testing.assert_close(p, q, rtol=0, atol=0)
    assert any(not torch.equal(p, q) for p, q in zip(a, c))


def test_the_default_forget_bias_is_one_in_the_f_block():
    H = 3
    for m, name in [(lt.LSTMCell(2, H, norm=None, dtype=F64), "bias_ih"), (lt.LSTM(2, H, norm=None, dtype=F64),
                                                                            "bias_ih_l0")]:
        b = getattr(m, name).detach()
        i, f, g, o = b.split(H)                                # torch's [i | f | g | o]
        torch.testing.assert_close(f, torch.ones(H, dtype=F64), rtol=0, atol=0)
        assert torch.all(i == 0) and torch.all(g == 0) and torch.all(o == 0)


def test_a_plain_rnn_cell_is_nn_rnncells_step_and_gradients_batched_and_unbatched():
    I, H, B = 3, 4, 2
    torch.manual_seed(1)
    ref = torch.nn.RNNCell(I, H, dtype=F64)
    ours = lt.RNNCell(I, H, norm=None, dtype=F64)
    assert ours.norm is None
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(2)
    x, h = torch.randn(B, I, dtype=F64, generator=g), torch.randn(B, H, dtype=F64, generator=g)
    w = torch.randn(B, H, dtype=F64, generator=g)
    for xs, hs, ws in [(x, h, w), (x[1], h[1], w[1])]:           # batched, then one unbatched row
        got, want = [], []
        for m, out in [(ours, got), (ref, want)]:
            m.zero_grad()
            xg, hg = xs.clone().requires_grad_(), hs.clone().requires_grad_()
            h1 = m(xg, hg)
            (h1 * ws).sum().backward()
            out += [h1.detach(), xg.grad, hg.grad, *(p.grad for p in m.parameters())]
        assert got[0].shape == hs.shape
        for a, e in zip(got, want):
            _close(a, e)


def test_an_unbatched_lstm_cell_with_its_state_given_is_nn_lstmcells():
    I, H = 2, 3
    torch.manual_seed(5)
    ref = torch.nn.LSTMCell(I, H, dtype=F64)
    ours = lt.LSTMCell(I, H, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(6)
    x, h, c = (torch.randn(n, dtype=F64, generator=g) for n in (I, H, H))
    got, want = ours(x, (h, c)), ref(x, (h, c))
    for a, e in zip(got, want):
        assert a.shape == (H,)
        _close(a, e)


def test_a_bidirectional_stack_over_ragged_rows_is_nn_lstm_over_the_packed_rows():
    T = B = 3                                                  # square: T and B cannot be told apart by shape
    I, H = 2, 2
    torch.manual_seed(7)
    ref = torch.nn.LSTM(I, H, bidirectional=True, dtype=F64)
    ours = lt.LSTM(I, H, norm=None, bidirectional=True, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(8)
    lengths = torch.tensor([3, 1, 2])
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    wo, wh = torch.randn(T, B, 2 * H, dtype=F64, generator=g), torch.randn(2, B, H, dtype=F64, generator=g)

    def run(m):
        m.zero_grad()
        xs = x.clone().requires_grad_()
        if m is ref:
            out, (h_n, c_n) = m(pack(xs, lengths, enforce_sorted=False))
            out = unpack(out, total_length=T)[0]
        else:
            out, (h_n, c_n) = m(xs, lengths=lengths)
        ((out * wo).sum() + (h_n * wh).sum()).backward()
        return [out.detach(), h_n.detach(), c_n.detach(), xs.grad, *(p.grad for p in m.parameters())]

    for a, e in zip(run(ours), run(ref)):
        _close(a, e)


def test_rows_of_length_zero_return_h0s_values_in_tensors_of_their_own():
    B, H = 2, 3
    m = lt.LSTM(2, H, norm="ln", dtype=F64)
    g = torch.Generator().manual_seed(9)
    x = torch.randn(4, B, 2, dtype=F64, generator=g)
    h0, c0 = torch.randn(1, B, H, dtype=F64, generator=g), torch.randn(1, B, H, dtype=F64, generator=g)
    keep_h, keep_c = h0.clone(), c0.clone()
    with torch.no_grad():
        out, (h_n, c_n) = m(x, (h0, c0), lengths=[0, 0])
    _close(h_n, keep_h)
    _close(c_n, keep_c)
    assert torch.all(out == 0)
    h0.add_(1.0), c0.add_(1.0)                                 # the caller reuses its state buffers
    _close(h_n, keep_h)
    _close(c_n, keep_c)


@pytest.mark.parametrize("training", [False, True])
def test_opcheck_of_a_batchnorm_layer_with_lengths_in_eval_and_train(training):
    T, B, I, H = 2, 3, 2, 2
    m = lt.LSTM(I, H, norm="bn", dtype=F64)
    m._grow_buffers(0, T)
    g = torch.Generator().manual_seed(10)
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    state = [torch.randn(B, H, dtype=F64, generator=g).requires_grad_() for _ in range(2)]
    params = [p.detach().clone().requires_grad_() for p in m.layer_params(0)]
    args = (x, state, params, m.layer_buffers(0), torch.tensor([2, 1, 0]), m.cell, training, True)
    torch.library.opcheck(lt.layer_forward, args)
    y, final, res, _ = lt.layer_forward(*args)
    assert y.shape == (T, B, H) and len(res) > 0 and res[-1].dtype == torch.int64 and res[-1].shape == (B,)


def test_norm_and_repr_are_the_arguments_given():
    assert lt.LSTM(2, 3, norm="none").norm is None and lt.RNN(2, 3, norm=None).norm is None
    assert lt.LSTM(2, 3, norm="ln").norm == "ln" and lt.RNN(2, 3, norm="bn").norm == "bn"
    assert lt.LSTM(2, 3, norm="none").extra_repr() == "2, 3, num_layers=1, norm=None"
    assert lt.LSTM(2, 3, bidirectional=True).extra_repr() == "2, 3, num_layers=1, norm='ln', bidirectional=True"
    assert lt.RNN(2, 3, batch_first=True).extra_repr() == "2, 3, num_layers=1, norm='ln', batch_first=True"


def test_the_refusals_word_for_word():
    m = lt.LSTM(2, 4, norm="ln", dtype=F64)
    with pytest.raises(ValueError, match=re.escape("LSTM: x must be (T, B, 2) ((B, T, 2) with batch_first=True), "
                                                   "not (5, 3, 3).")):
        m(torch.zeros(5, 3, 3, dtype=F64))
    x32 = torch.zeros(5, 3, 2, dtype=torch.float32)
    listed = "x torch.float32, hx[0] torch.float32, hx[1] torch.float32, weights torch.float64"
    with pytest.raises(TypeError, match=re.escape(f"LSTM: mixed dtypes ({listed}): ")):
        m(x32)
    x = torch.zeros(5, 3, 2, dtype=F64)
    with pytest.raises(ValueError, match=re.escape("LSTM: hx must be (h0, c0), each (1, 3, 4).")):
        m(x, torch.zeros(1, 3, 4, dtype=F64))
    r = lt.RNN(2, 4, norm=None, dtype=F64)
    with pytest.raises(ValueError, match=re.escape("RNN: hx must be h0, each (1, 3, 4).")):
        r(x, (torch.zeros(1, 3, 4, dtype=F64),) * 2)
