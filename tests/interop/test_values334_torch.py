"""lnrnn.torch's modules and layer op, eighteenth pass, judged by torch itself and by lnrnn/reference.py.

The judges: ``torch.nn.LSTM`` / ``nn.RNN`` / ``nn.LSTMCell`` / ``nn.RNNCell`` (float64, their own drawn weights
loaded strictly) for outputs, final states and the gradients of x, the states and every parameter (bias_hh
included): a two-layer batch_first stack in evaluation with dropout, over more steps than rows (T 5, B 2) with
hx given; cells over more rows than inputs (B 5, I 3) with hx given; a two-layer stack over a PackedSequence of
unsorted lengths (2, 5, 3). The op's real outputs and the shapes written out by hand for its fake (shapes only,
run under FakeTensorMode) at T 2, B 3, I 5, H 4; ``reference.bn_rnn_forward`` for a BN-RNN's outputs and running
statistics after one and two training calls (grown to 2, then 3 rows) and after a state_dict round trip into a
fresh module; the error nn.LSTM's strict load raises for a run's tensors with a key missing; the refusal of a
gradient of a BN-LSTM's c_n word for word.

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
from test_values132_torch import _raises  # noqa: E402
from test_values224_torch import _run  # noqa: E402
from test_values290_torch import _close, _pair  # noqa: E402
from test_values309_torch import _bn_rnn, _cell_pair, _spec_args, _stats, _weighted  # noqa: E402

F64 = torch.float64


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_two_layer_batch_first_stack_over_more_steps_than_rows_with_hx_is_nn_modules(kind):
    """x (B 2, T 5, I 3), H 4, dropout 0.5 in evaluation, hx (2, 2, 4): out (2, 5, 4), the final states and the
    gradients of x, h0 (c0) and every parameter, bias_hh_l0 and bias_hh_l1 included."""
    T, B, I, H, L = 5, 2, 3, 4, 2
    ref, ours = _pair(kind, I, H, num_layers=L, batch_first=True, dropout=0.5)
    ref.eval()
    ours.eval()
    g = torch.Generator().manual_seed(334)
    x = torch.randn(B, T, I, dtype=F64, generator=g)
    hx = [torch.randn(L, B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    got = _run(ours, x, hx)
    assert got[0].shape == (B, T, H) and got[1].shape == (L, B, H)
    names = [n for n, _ in ours.named_parameters()]
    assert "bias_hh_l0" in names and "bias_hh_l1" in names
    _close(got, _run(ref, x, hx))


def check_cell_with_hx(kind, B, I, H, seed, weights_seed):
    """lt.LSTMCell / lt.RNNCell (I, H) on a (B, I) input with h (and c) given (the RNN cell's h as one tensor):
    h' (c') and the gradients of the input, the states and every parameter (bias_hh included) of a weighted loss
    on every output, against nn.LSTMCell / nn.RNNCell with the same weights."""
    ref, ours = _cell_pair(kind, I, H)
    g = torch.Generator().manual_seed(seed)
    x0 = torch.randn(B, I, dtype=torch.float64, generator=g)
    hx0 = [torch.randn(B, H, dtype=torch.float64, generator=g) for _ in range(2 if kind == "lstm" else 1)]

    def run(m):
        x = x0.clone().requires_grad_()
        st = [s.clone().requires_grad_() for s in hx0]
        out = m(x, tuple(st) if kind == "lstm" else st[0])
        out = list(out) if kind == "lstm" else [out]
        _weighted(out, weights_seed).backward()
        return [*out, x.grad, *(s.grad for s in st), *(p.grad for p in m.parameters())]

    got = run(ours)
    assert got[0].shape == (B, H)
    _close(got, run(ref))


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_cells_over_more_rows_than_inputs_with_hx_are_nn_cells(kind):
    """input (5, 3), H 4, h (and c) (5, 4) given: as nn.LSTMCell / nn.RNNCell (check_cell_with_hx)."""
    check_cell_with_hx(kind, 5, 3, 4, seed=335, weights_seed=7)


def test_a_two_layer_stack_over_unsorted_packed_lengths_is_nn_lstms():
    """lengths (2, 5, 3) packed with enforce_sorted=False, T 5, B 3, L 2, h0 and c0 given: the packed output
    (data, batch sizes, orders), h_n, c_n and the gradients of x, h0, c0 and every parameter of a loss on the
    packed data and h_n, as nn.LSTM gives them."""
    T, B, I, H, L = 5, 3, 3, 4, 2
    ref, ours = _pair("lstm", I, H, num_layers=L)
    g = torch.Generator().manual_seed(336)
    lengths = torch.tensor([2, 5, 3])
    x0 = torch.randn(T, B, I, dtype=F64, generator=g)
    hx0 = [torch.randn(L, B, H, dtype=F64, generator=g) for _ in range(2)]

    def run(m):
        x = x0.clone().requires_grad_()
        st = [s.clone().requires_grad_() for s in hx0]
        out, (h_n, c_n) = m(pack_padded_sequence(x, lengths, enforce_sorted=False), tuple(st))
        (_weighted([out.data], 1) + _weighted([h_n], 2)).backward()
        return out, [out.data, h_n, c_n, x.grad, *(s.grad for s in st), *(p.grad for p in m.parameters())]

    got_packed, got = run(ours)
    want_packed, want = run(ref)
    assert got_packed.data.shape == (2 + 5 + 3, H)
    assert got_packed.batch_sizes.tolist() == [3, 3, 2, 1, 1]
    assert got_packed.sorted_indices.tolist() == [1, 2, 0] == want_packed.sorted_indices.tolist()
    assert got_packed.unsorted_indices.tolist() == want_packed.unsorted_indices.tolist()
    _close(got, want)


@pytest.mark.parametrize("kind,norm,training", [("rnn", None, False), ("lstm", "ln", False),
                                                ("lstm", "bn", True)])
def test_the_layer_ops_fake_gives_the_real_ops_shapes(kind, norm, training):
    """T 2, B 3, I 5, H 4 (four different sizes): under FakeTensorMode the op gives y (2, 3, 4), one (3, 4) final
    state per state, the real op's residual shapes and dtypes, and (training) the buffers' shapes."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    T, B, I, H = 2, 3, 5, 4
    torch.manual_seed(337)
    m = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, norm=norm, dtype=F64)
    n = 2 if kind == "lstm" else 1
    g = torch.Generator().manual_seed(338)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    st = [torch.randn(B, H, dtype=F64, generator=g) for _ in range(n)]
    params = [p.detach().clone() for p in m.layer_params(0)]
    bufs = [b.detach().expand(T, -1).clone() for b in m.layer_buffers(0)]
    real = lt.layer_forward(x, st, params, bufs, None, m.cell, training, True)
    with FakeTensorMode() as mode:
        fake = lt.layer_forward(mode.from_tensor(x), [mode.from_tensor(s) for s in st],
                                [mode.from_tensor(p) for p in params], [mode.from_tensor(b) for b in bufs], None,
                                m.cell, training, True)
    y, final, res, new_bufs = fake
    assert tuple(y.shape) == (T, B, H) == tuple(real[0].shape)
    assert [tuple(f.shape) for f in final] == [(B, H)] * n == [tuple(f.shape) for f in real[1]]
    assert len(res) == len(real[2]) > 0
    assert [(tuple(r.shape), r.dtype) for r in res] == [(tuple(r.shape), r.dtype) for r in real[2]]
    assert [tuple(b.shape) for b in new_bufs] == ([tuple(b.shape) for b in bufs] if training else [])
    assert [tuple(b.shape) for b in real[3]] == [tuple(b.shape) for b in new_bufs]


def test_bn_rnn_statistics_after_two_training_calls_round_trip_through_a_state_dict():
    """Call 1: T 2, no lengths (the one initial row grown to 2); call 2: T 3, lengths (3, 1, 2, 3) (grown to 3).
    The four statistics (3, H) as reference.bn_rnn_forward's in-place updates, step 0's running variance of x
    after call 1 written out (0.9 * 1 + 0.1 * unbiased variance); the state_dict loaded strictly into a fresh
    module (one row each) gives its rows, and in evaluation over T 4 (the last row reused) the spec's values."""
    I, H, B = 3, 5, 4
    m = _bn_rnn(I, H, 334)
    m.train()
    g = torch.Generator().manual_seed(339)
    x1 = torch.randn(2, B, I, dtype=F64, generator=g)
    x2 = torch.randn(3, B, I, dtype=F64, generator=g)
    x3 = torch.randn(4, B, I, dtype=F64, generator=g)
    lengths = np.array([3, 1, 2, 3])
    Wx, Wh, b, gx, gh = _spec_args(m)
    stats = [np.zeros((2, H)), np.ones((2, H)), np.zeros((2, H)), np.ones((2, H))]
    h0 = np.zeros((B, H))

    out1, _ = m(x1)
    y1, _, _ = reference.bn_rnn_forward(x1.numpy(), h0, Wx, Wh, b, gx, gh, *stats, True)
    np.testing.assert_allclose(out1.detach().numpy(), y1, rtol=0, atol=1e-11)
    xw0 = x1[0].numpy() @ Wx
    np.testing.assert_allclose(_stats(m)[1][0], 0.9 + 0.1 * xw0.var(axis=0, ddof=1), rtol=0, atol=1e-12)

    out2, _ = m(x2, lengths=torch.tensor(lengths))
    stats = [np.concatenate([s, s[-1:]]) for s in stats]
    y2, _, _ = reference.bn_rnn_forward(x2.numpy(), h0, Wx, Wh, b, gx, gh, *stats, True, lengths=lengths)
    mask = (np.arange(3)[:, None] < lengths[None, :])[:, :, None]
    np.testing.assert_allclose(out2.detach().numpy(), y2 * mask, rtol=0, atol=1e-11)
    for a, e in zip(_stats(m), stats):
        assert a.shape == (3, H)
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-12)

    fresh = lt.RNN(I, H, norm="bn", dtype=F64)
    assert all(s.shape == (1, H) for s in _stats(fresh))
    fresh.load_state_dict(m.state_dict(), strict=True)
    for a, e, kept in zip(_stats(fresh), stats, _stats(m)):
        assert a.shape == (3, H)
        np.testing.assert_array_equal(a, kept)
        np.testing.assert_allclose(a, e, rtol=0, atol=1e-12)
    fresh.eval()
    with torch.no_grad():
        out3, _ = fresh(x3)
    grown = [np.concatenate([s, s[-1:]]) for s in stats]
    y3, _, _ = reference.bn_rnn_forward(x3.numpy(), h0, Wx, Wh, b, gx, gh, *grown, False)
    np.testing.assert_allclose(out3.numpy(), y3, rtol=0, atol=1e-11)
    assert all(s.shape == (3, H) for s in _stats(fresh))


def test_tensors_with_a_key_missing_are_refused_with_nn_lstms_strict_load_error():
    """A run's tensors of a two-layer nn.LSTM without rnn.bias_hh_l1: the key nn.LSTM's own strict load names
    for that dictionary, named in one line; with every key the stack is nn.LSTM in evaluation."""
    I, H = 3, 4
    torch.manual_seed(340)
    ref = torch.nn.LSTM(I, H, num_layers=2, dtype=F64).eval()
    sd = ref.state_dict()
    config = dict(cell="lstm", dtype="float64", forget_bias=1.0, input_size=I, hidden_size=H, num_layers=2,
                  norm=None)
    stack, head = it._from_tensors(config, {"rnn." + k: v.numpy() for k, v in sd.items()})
    assert head is None
    x = torch.randn(4, 2, I, dtype=F64, generator=torch.Generator().manual_seed(341))
    with torch.no_grad():
        out, (h_n, c_n) = stack(x)
        out_ref, (h_ref, c_ref) = ref(x)
    _close([out, h_n, c_n], [out_ref, h_ref, c_ref])

    partial = {k: v for k, v in sd.items() if k != "bias_hh_l1"}
    with pytest.raises(RuntimeError) as want:
        torch.nn.LSTM(I, H, num_layers=2, dtype=F64).load_state_dict(partial, strict=True)
    assert 'Missing key(s) in state_dict: "bias_hh_l1".' in str(want.value)
    with pytest.raises(ValueError) as got:              # the same key named, in one line
        it._from_tensors(config, {"rnn." + k: v.numpy() for k, v in partial.items()})
    assert str(got.value) == ("the tensors do not fit the lstm stack the model config describes (rnn.bias_hh_l1 "
                              "missing, unexpected or of another shape).")


def test_a_gradient_of_a_bn_lstms_c_n_is_refused_word_for_word():
    """BN-LSTM in training, T 3, B 2: a loss on h_n takes its gradient; one on c_n is refused with the sentence."""
    m = lt.LSTM(3, 4, norm="bn", dtype=F64)
    x = torch.randn(3, 2, 3, dtype=F64, generator=torch.Generator().manual_seed(342))
    _, (h_n, c_n) = m(x)
    h_n.sum().backward(retain_graph=True)
    assert m.weight_ih_l0.grad is not None and bool(torch.any(m.weight_ih_l0.grad != 0))
    _raises(NotImplementedError, "lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
            "output sequence or h_n in the loss, or detach c_n.", lambda: c_n.sum().backward())
