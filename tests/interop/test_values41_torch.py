"""lnrnn.torch's plumbing against what it promises: a strided initial state read as its values (against the same
state made contiguous and against torch.nn.LSTM), the memory span of an array worked out by hand (C-ordered,
reversed, a column), outputs that alias an input or an earlier output copied and the others left alone, the
fake layer op's shapes equal to the real op's with I != H, a zero gradient reaching the c_n guard accepted,
every parameter in the module's dtype, initial weights reproducible under torch.manual_seed, initial states
with the wrong number of layers refused, BatchNorm statistics one row short grown before training, and the
input gradient of a frozen stack (torch.nn.LSTM's)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.torch import _fresh, _layer_forward_fake, _span  # noqa: E402

F64 = torch.float64


def _nn_copy(m):
    """torch.nn.LSTM with m's (plain, norm=None) weights."""
    ref = torch.nn.LSTM(m.input_size, m.hidden_size, m.num_layers, bidirectional=m.bidirectional, dtype=F64)
    ref.load_state_dict(m.state_dict())
    return ref


def test_a_strided_initial_state_reads_as_its_values():
    torch.manual_seed(0)
    m = lt.LSTM(3, 4, 2, norm=None, dtype=F64)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(5, 3, 3, dtype=F64, generator=g)
    # (B, L, H) transposed to (L, B, H): each layer's row h0[k] is strided (B rows L*H apart)
    h0 = torch.randn(3, 2, 4, dtype=F64, generator=g).transpose(0, 1)
    c0 = torch.randn(3, 2, 4, dtype=F64, generator=g).transpose(0, 1)
    assert not h0[0].is_contiguous()
    with torch.no_grad():
        out, (h, c) = m(x, (h0, c0))
        want, (wh, wc) = m(x, (h0.contiguous(), c0.contiguous()))
        ref, (rh, rc) = _nn_copy(m)(x, (h0, c0))
    torch.testing.assert_close(out, want, rtol=0, atol=0)
    torch.testing.assert_close(c, wc, rtol=0, atol=0)
    torch.testing.assert_close(out, ref, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h, rh, rtol=1e-10, atol=1e-12)


def test_the_layer_op_reads_a_strided_input_and_state_as_their_values():
    torch.manual_seed(2)
    m = lt.RNN(3, 4, 1, norm="ln", dtype=F64)
    g = torch.Generator().manual_seed(3)
    wide = torch.randn(5, 2, 6, dtype=F64, generator=g)
    x = wide[:, :, ::2]                                          # (5,2,3), every other column
    h0 = torch.randn(4, 2, dtype=F64, generator=g).t()            # (2,4), transposed
    params = [p.detach() for p in m.layer_params(0)]
    y, final, _, _ = lt.layer_forward(x, [h0], params, [], None, m.cell, False, False)
    want, wfinal, _, _ = lt.layer_forward(x.contiguous(), [h0.contiguous()], params, [], None, m.cell, False, False)
    torch.testing.assert_close(y, want, rtol=0, atol=0)
    torch.testing.assert_close(final[0], wfinal[0], rtol=0, atol=0)


def test_the_span_of_an_array_by_hand():
    a = np.zeros((3, 4), np.float64)
    p = a.ctypes.data
    assert _span(a) == (p, p + 96)                               # 12 items of 8 bytes
    assert _span(a[::-1]) == (p, p + 96)                         # reversed rows: the same bytes
    assert _span(a[:, 1]) == (p + 8, p + 8 + 2 * 32 + 8)         # a column: items 1, 5, 9
    assert _span(a[2]) == (p + 64, p + 96)
    b = np.zeros((2, 3, 5), np.float32)
    assert _span(b) == (b.ctypes.data, b.ctypes.data + 120)


def test_outputs_aliasing_an_input_or_an_earlier_output_are_copied():
    x = np.arange(12.0).reshape(3, 4)
    y = np.arange(24.0).reshape(2, 3, 4)
    other = np.ones(4)
    out = _fresh([y, y[-1, -1], x[2], other], [_span(x)])
    assert out[0] is y and out[3] is other                       # nothing overlaps them
    for got, want in ((out[1], y[-1, -1]), (out[2], x[2])):
        np.testing.assert_array_equal(got, want)
        assert not np.shares_memory(got, y) and not np.shares_memory(got, x)
    again = _fresh([y[0], y[1], y[0, 0]], [])                    # y[0, 0] lies in the first output
    assert np.shares_memory(again[0], y) and np.shares_memory(again[1], y)   # apart: left as they are
    assert not np.shares_memory(again[2], y)


@pytest.mark.parametrize("name", ["ln-lstm", "rnn", "bn-lstm"])
def test_the_fake_op_shapes_equal_the_real_ones_with_input_and_hidden_sizes_apart(name):
    T, B, I, H = 3, 2, 5, 3
    cls = lt.LSTM if name.endswith("lstm") else lt.RNN
    torch.manual_seed(4)
    m = cls(I, H, 1, norm=None if name in ("lstm", "rnn") else name[:2], dtype=F64)
    m._grow_buffers(0, T)
    x = torch.randn(T, B, I, dtype=F64)
    state = [torch.randn(B, H, dtype=F64) for _ in range(m.spec.nstate)]
    params = [p.detach() for p in m.layer_params(0)]
    args = (x, state, params, m.layer_buffers(0), None, m.cell, True, True)
    real = lt.layer_forward(*args)
    fake = _layer_forward_fake(*args)
    assert real[0].shape == fake[0].shape == (T, B, H)
    for got, want in zip(fake[1:], real[1:]):
        assert [(t.shape, t.dtype) for t in got] == [(t.shape, t.dtype) for t in want]


@pytest.mark.parametrize("norm, ragged", [("bn", False), (None, True)])
def test_a_zero_gradient_of_c_n_is_accepted_where_the_kernels_take_none(norm, ragged):
    torch.manual_seed(5)
    m = lt.LSTM(2, 3, 1, norm=norm, dtype=F64)
    g = torch.Generator().manual_seed(6)
    x = torch.randn(4, 3, 2, dtype=F64, generator=g).requires_grad_()
    lengths = torch.tensor([4, 2, 3]) if ragged else None
    out, (h, c) = m(x, lengths=lengths)
    (out.sum() + 0.0 * c.sum()).backward()
    with_zero = x.grad.clone()
    x.grad = None
    out, (h, c) = m(x, lengths=lengths)
    out.sum().backward()
    torch.testing.assert_close(with_zero, x.grad, rtol=0, atol=0)
    out, (h, c) = m(x, lengths=lengths)
    with pytest.raises(NotImplementedError, match="c_n"):
        (out.sum() + c.sum()).backward()


@pytest.mark.parametrize("make", [lambda: lt.LSTM(2, 3, 2, norm=None, dtype=F64),
                                  lambda: lt.RNN(2, 3, 1, norm="ln", dtype=F64, bidirectional=True),
                                  lambda: lt.LSTM(2, 3, 1, norm="bn", dtype=F64),
                                  lambda: lt.LSTMCell(2, 3, norm=None, dtype=F64),
                                  lambda: lt.RNNCell(2, 3, dtype=F64)])
def test_every_parameter_and_buffer_is_in_the_module_dtype(make):
    m = make()
    assert {v.dtype for v in m.state_dict().values()} == {F64}
    assert any(n.startswith("bias_hh") for n in m.state_dict())


@pytest.mark.parametrize("make", [lambda: lt.LSTM(2, 3, 2, norm="ln"), lambda: lt.RNN(2, 3, 1, norm=None),
                                  lambda: lt.LSTMCell(2, 3)])
def test_initial_weights_follow_torch_manual_seed(make):
    torch.manual_seed(11)
    a = make().state_dict()
    torch.manual_seed(11)
    b = make().state_dict()
    torch.manual_seed(12)
    c = make().state_dict()
    assert a.keys() == b.keys() == c.keys()
    for k in a:
        torch.testing.assert_close(a[k], b[k], rtol=0, atol=0)
    assert not torch.equal(a["weight_ih_l0" if "weight_ih_l0" in a else "weight_ih"],
                           c["weight_ih_l0" if "weight_ih_l0" in c else "weight_ih"])


@pytest.mark.parametrize("layers, bidirectional, rows", [(2, False, 1), (2, False, 3), (1, True, 1), (2, True, 2)])
def test_initial_states_with_the_wrong_number_of_layers_are_refused(layers, bidirectional, rows):
    torch.manual_seed(7)
    m = lt.LSTM(2, 3, layers, norm=None, bidirectional=bidirectional, dtype=F64)
    x = torch.randn(4, 2, 2, dtype=F64)
    h0 = torch.zeros(rows, 2, 3, dtype=F64)
    with pytest.raises(ValueError, match="hx holds"):
        m(x, (h0, h0.clone()))
    r = lt.RNN(2, 3, layers, norm=None, bidirectional=bidirectional, dtype=F64)
    with pytest.raises(ValueError, match="hx holds"):
        r(x, h0)


def test_statistics_one_row_short_grow_before_training():
    torch.manual_seed(8)
    m = lt.LSTM(2, 3, 1, norm="bn", dtype=F64).train()
    g = torch.Generator().manual_seed(9)
    with torch.no_grad():
        m(torch.randn(3, 4, 2, dtype=F64, generator=g))          # statistics of 3 steps
    assert m.norm_ih_running_mean_l0.shape[0] == 3
    x = torch.randn(4, 4, 2, dtype=F64, generator=g)             # one step more
    other = lt.LSTM(2, 3, 1, norm="bn", dtype=F64).train()
    other.load_state_dict(m.state_dict())
    with torch.no_grad():                                         # grown by hand: the last row repeated
        for name, b in list(other.named_buffers()):
            setattr(other, name, torch.cat([b, b[-1:]]))
        out, (h, c) = m(x)
        want, (wh, wc) = other(x)
    torch.testing.assert_close(out, want, rtol=0, atol=0)
    for (n, b), (_, w) in zip(m.named_buffers(), other.named_buffers()):
        assert b.shape == w.shape and b.shape[0] == 4, n
        torch.testing.assert_close(b, w, rtol=0, atol=0)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_the_input_gradient_of_a_frozen_stack(bidirectional):
    torch.manual_seed(10)
    m = lt.LSTM(3, 4, 2, norm=None, bidirectional=bidirectional, dtype=F64).requires_grad_(False)
    ref = _nn_copy(m).requires_grad_(False)
    g = torch.Generator().manual_seed(11)
    x = torch.randn(5, 2, 3, dtype=F64, generator=g)
    w = torch.randn(5, 2, m.output_size, dtype=F64, generator=g)
    xa, xb = x.clone().requires_grad_(), x.clone().requires_grad_()
    (w * m(xa)[0]).sum().backward()
    (w * ref(xb)[0]).sum().backward()
    torch.testing.assert_close(xa.grad, xb.grad, rtol=1e-10, atol=1e-12)


def test_a_file_without_lnrnn_config_is_refused_in_one_sentence(tmp_path):
    from lnrnn.interop.export import write_safetensors
    torch.manual_seed(12)
    ref = torch.nn.LSTM(2, 3, dtype=F64)
    path = str(tmp_path / "plain.safetensors")
    write_safetensors(path, {k: v.numpy() for k, v in ref.state_dict().items()}, {"format": "pt"})
    with pytest.raises(ValueError, match="carries no lnrnn model config"):
        lt.load_exported(path)
    m = lt.LSTM(2, 3, norm=None, dtype=F64)                       # what the sentence advises loads it
    from lnrnn.interop.export import read_safetensors
    m.load_state_dict({k: torch.from_numpy(v) for k, v in read_safetensors(path)[0].items()})
    torch.testing.assert_close(m.weight_hh_l0, ref.weight_hh_l0, rtol=0, atol=0)
