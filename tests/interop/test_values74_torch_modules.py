"""lnrnn.torch's modules and cells against torch's own and against their documented refusals: a plain LSTM
loaded from ``torch.nn.LSTM`` in eval() on ragged rows gives, for a loss on out and h_n, the gradients of x,
h0, c0 and every parameter that nn.LSTM gives running each row alone over its own steps; a packed input
sorted by a 3-cycle (not its own inverse) comes back as nn.LSTM's PackedSequence; a loss on c_n over ragged
rows is refused (NotImplementedError) while h_n's is not; hx with too many or too few states, or of a wrong
shape, is refused in one sentence naming the expected layout ((num_layers * 2, ...) only when bidirectional);
a bidirectional two-layer stack has nn.LSTM's parameter names (``*_reverse``) and loads its state_dict; the
cells follow torch's default dtype as nn.LSTMCell does, refuse an empty batch and an LSTMCell hx of one
state, and stepping an LN-LSTMCell T times gives the LN-LSTM sequence layer's out and final state."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64
pack = torch.nn.utils.rnn.pack_padded_sequence


def _plain_pair(I, H, layers=1, seed=0, **kw):
    torch.manual_seed(seed)
    ref = torch.nn.LSTM(I, H, num_layers=layers, dtype=F64, **kw)
    ours = lt.LSTM(I, H, num_layers=layers, norm=None, dtype=F64, **kw)
    ours.load_state_dict(ref.state_dict(), strict=True)
    return ref, ours


def test_eval_gradients_over_ragged_rows_are_nn_lstms_row_by_row():
    T, B, I, H = 4, 3, 2, 3
    ref, ours = _plain_pair(I, H)
    ref.eval(), ours.eval()
    g = torch.Generator().manual_seed(1)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    h0, c0 = (0.5 * torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2))
    w_out, w_h = torch.randn(T, B, H, dtype=F64, generator=g), torch.randn(B, H, dtype=F64, generator=g)
    lengths = [4, 1, 2]

    xs, h0s, c0s = (t.clone().requires_grad_() for t in (x, h0, c0))
    out, (h_n, _) = ours(xs, (h0s, c0s), lengths=torch.tensor(lengths))
    ((out * w_out).sum() + (h_n[0] * w_h).sum()).backward()
    got = [xs.grad, h0s.grad, c0s.grad, *(p.grad for p in ours.parameters())]

    xr, h0r, c0r = (t.clone().requires_grad_() for t in (x, h0, c0))
    loss = 0
    for b, L in enumerate(lengths):                         # each row alone, over its own steps
        o, (hn, _) = ref(xr[:L, b:b + 1], (h0r[:, b:b + 1], c0r[:, b:b + 1]))
        loss = loss + (o[:, 0] * w_out[:L, b]).sum() + (hn[0, 0] * w_h[b]).sum()
    loss.backward()
    want = [xr.grad, h0r.grad, c0r.grad, *(p.grad for p in ref.parameters())]
    for a, e in zip(got, want):
        torch.testing.assert_close(a, e, rtol=1e-10, atol=1e-12)


def test_a_packed_input_sorted_by_a_three_cycle_comes_back_as_nn_lstms():
    T, B, I, H = 3, 3, 2, 2
    ref, ours = _plain_pair(I, H, layers=2)
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(2))
    packed = pack(x, torch.tensor([1, 3, 2]), enforce_sorted=False)
    assert not torch.equal(packed.sorted_indices, packed.unsorted_indices)  # not its own inverse
    (out, (h, c)), (r_out, (rh, rc)) = ours(packed), ref(packed)
    torch.testing.assert_close(out.data, r_out.data, rtol=1e-10, atol=1e-12)
    for attr in ("batch_sizes", "sorted_indices", "unsorted_indices"):
        assert torch.equal(getattr(out, attr), getattr(r_out, attr))
    torch.testing.assert_close(h, rh, rtol=1e-10, atol=1e-12)


def test_a_loss_on_c_n_over_ragged_rows_is_refused_and_h_ns_is_not():
    torch.manual_seed(0)
    m = lt.LSTM(2, 3, norm="ln", dtype=F64)
    x = torch.randn(4, 2, 2, dtype=F64, requires_grad=True)
    lengths = torch.tensor([4, 2])
    _, (h_n, c_n) = m(x, lengths=lengths)
    with pytest.raises(NotImplementedError, match="no gradient for the final cell state c_n"):
        c_n.sum().backward()
    _, (h_n, _) = m(x, lengths=lengths)
    h_n.sum().backward()
    assert x.grad is not None and torch.all(x.grad[2:, 1] == 0) and torch.any(x.grad[:2, 1] != 0)


def test_hx_with_the_wrong_number_of_states_is_refused():
    x = torch.zeros(3, 2, 2, dtype=F64)
    z = torch.zeros(1, 2, 3, dtype=F64)
    with pytest.raises(ValueError, match=r"RNN: hx must be h0, each \(1, 2, 3\)"):
        lt.RNN(2, 3, dtype=F64)(x, (z, z))
    with pytest.raises(ValueError, match=r"LSTM: hx must be \(h0, c0\), each \(1, 2, 3\)"):
        lt.LSTM(2, 3, dtype=F64)(x, (z, z, z))
    with pytest.raises(ValueError, match=r"LSTM: hx must be \(h0, c0\)"):
        lt.LSTM(2, 3, dtype=F64)(x, z)


def test_a_wrong_hx_shape_names_the_layout_of_this_module():
    x = torch.zeros(3, 2, 2, dtype=F64)
    bad = torch.zeros(1, 2, 3, dtype=F64)
    with pytest.raises(ValueError, match=r"\(2, 2, 3\) was expected \(num_layers \* 2, batch, hidden_size\)"):
        lt.LSTM(2, 3, bidirectional=True, dtype=F64)(x, (bad, bad))
    with pytest.raises(ValueError, match=r"\(2, 2, 3\) was expected \(num_layers, batch, hidden_size\)"):
        lt.LSTM(2, 3, num_layers=2, dtype=F64)(x, (bad, bad))


def test_a_bidirectional_stack_has_nn_lstms_names_and_loads_its_state_dict():
    T, B, I, H = 3, 2, 2, 2
    ref, ours = _plain_pair(I, H, layers=2, bidirectional=True)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in ref.named_parameters()]
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(3))
    (out, (h, c)), (r_out, (rh, rc)) = ours(x), ref(x)
    for a, e in ((out, r_out), (h, rh), (c, rc)):
        torch.testing.assert_close(a, e, rtol=1e-10, atol=1e-12)


# ---- the cells ----

@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_cells_follow_torchs_default_dtype(kind):
    old = torch.get_default_dtype()
    torch.set_default_dtype(F64)
    try:
        ref = (torch.nn.LSTMCell if kind == "lstm" else torch.nn.RNNCell)(2, 3)
        ours = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(2, 3)
        x = torch.randn(4, 2)
    finally:
        torch.set_default_dtype(old)
    assert ours.weight_ih.dtype == ref.weight_ih.dtype == F64
    assert all(p.dtype == F64 for p in ours.parameters())
    out = ours(x)
    assert all(o.dtype == F64 for o in (out if isinstance(out, tuple) else (out,)))


def test_cells_refuse_an_empty_batch_and_an_lstm_state_of_one_tensor():
    c = lt.LSTMCell(2, 3, dtype=F64)
    with pytest.raises(ValueError, match=r"LSTMCell: input must be \(B, 2\) with B >= 1"):
        c(torch.zeros(0, 2, dtype=F64))
    with pytest.raises(ValueError, match=r"RNNCell: input must be \(B, 2\) with B >= 1"):
        lt.RNNCell(2, 3, dtype=F64)(torch.zeros(0, 2, dtype=F64))
    h = torch.zeros(2, 3, dtype=F64)
    with pytest.raises(ValueError, match=r"LSTMCell: hx must be \(h, c\), each \(2, 3\)"):
        c(torch.zeros(2, 2, dtype=F64), (h,))


def test_stepping_an_ln_lstm_cell_is_the_sequence_layer():
    T, B, I, H = 3, 2, 2, 3
    torch.manual_seed(0)
    seq = lt.LSTM(I, H, norm="ln", dtype=F64)
    g = torch.Generator().manual_seed(4)
    with torch.no_grad():
        for p in seq.parameters():
            p.add_(0.3 * torch.randn(p.shape, dtype=F64, generator=g))
    cell = lt.LSTMCell(I, H, norm="ln", dtype=F64)
    cell.load_state_dict({k[:-len("_l0")]: v for k, v in seq.state_dict().items()}, strict=True)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    h0, c0 = (0.5 * torch.randn(1, B, H, dtype=F64, generator=g) for _ in range(2))
    out, (h_n, c_n) = seq(x, (h0, c0))
    h, c = h0[0], c0[0]
    for t in range(T):
        h, c = cell(x[t], (h, c))
        torch.testing.assert_close(h, out[t], rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(h, h_n[0], rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(c, c_n[0], rtol=1e-12, atol=1e-12)


def test_a_half_precision_state_is_refused_by_name_not_as_mixed_dtypes():
    m = lt.LSTM(2, 3, dtype=F64)
    x = torch.zeros(3, 2, 2, dtype=F64)
    z = torch.zeros(1, 2, 3, dtype=F64)
    for half in (torch.float16, torch.bfloat16):
        with pytest.raises(TypeError, match=rf"hx\[1\] is {half}, but lnrnn's kernels run float32 or float64 only"):
            m(x, (z, z.to(half)))
