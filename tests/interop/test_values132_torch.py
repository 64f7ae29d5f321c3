"""lnrnn.torch's modules against torch ops and torch's own modules with the same weights, written here: a
two-layer LN-LSTM stack in training mode (no dropout unless asked) against the LN-LSTM step in torch ops
(a = LN(x Wx) + LN(h Wh) + b, c' = f c + i g, h' = o tanh(LN(c'))), its gradients of x, h0, c0 and every
parameter against autograd through those ops (also with only h0 requiring a gradient), and
torch.autograd.gradcheck on a tiny float64 layer; an unsorted PackedSequence (enforce_sorted=False) against
torch.nn.LSTM, output data, indices and states; the stacks' dropout and forget_bias as given, and their repr;
the refusals' one-line messages word for word (x's width, the lengths' count, a cell's input width, a cell's
hx listing every shape, the norm spellings each module takes, a cell's dtype check naming its weights);
load_exported of a float64 LN-RNN and its head written here with write_safetensors (dtype and outputs kept);
and a bidirectional BN-RNN's state_dict round trip after a training pass."""
import json
import os
import re

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence  # noqa: E402

import lnrnn.torch as lt  # noqa: E402
from lnrnn.config import EPS  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402

F64 = torch.float64
nn = torch.nn


def _ln(a, g, b):
    mu = a.mean(-1, keepdim=True)
    var = ((a - mu) ** 2).mean(-1, keepdim=True)
    return (a - mu) / torch.sqrt(var + EPS) * g + b


def _ln_lstm_layer(m, k, x, h, c):
    """One LN-LSTM layer of m in torch ops: x (T,B,I), h, c (B,H) -> y (T,B,H), h_n, c_n."""
    p = {n: getattr(m, f"{n}_l{k}") for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "norm_ih_weight",
                                              "norm_ih_bias", "norm_hh_weight", "norm_hh_bias",
                                              "norm_cell_weight", "norm_cell_bias")}
    H = h.shape[1]
    ys = []
    for t in range(x.shape[0]):
        a = (_ln(x[t] @ p["weight_ih"].t(), p["norm_ih_weight"], p["norm_ih_bias"])
             + _ln(h @ p["weight_hh"].t(), p["norm_hh_weight"], p["norm_hh_bias"]) + p["bias_ih"] + p["bias_hh"])
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(_ln(c, p["norm_cell_weight"], p["norm_cell_bias"]))
        ys.append(h)
    return torch.stack(ys), h, c


def _ln_lstm_stack(m, x, h0, c0):
    inp, hs, cs = x, [], []
    for k in range(m.num_layers):
        inp, h, c = _ln_lstm_layer(m, k, inp, h0[k], c0[k])
        hs.append(h)
        cs.append(c)
    return inp, torch.stack(hs), torch.stack(cs)


def _random_norm_params(m, seed):
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for n, p in m.named_parameters():
            if n.startswith("norm_") or n.startswith("bias_hh"):
                p.copy_(torch.rand(p.shape, generator=g, dtype=p.dtype) + 0.5 if "weight" in n
                        else torch.randn(p.shape, generator=g, dtype=p.dtype) * 0.2)


def test_a_two_layer_ln_lstm_trains_without_dropout_by_default_as_written_here():
    T, B, I, H = 4, 3, 3, 2
    torch.manual_seed(0)
    m = lt.LSTM(I, H, num_layers=2, norm="ln", dtype=F64)
    assert m.training and m.dropout == 0.0 and m.forget_bias == 1.0
    _random_norm_params(m, 1)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0 = torch.randn(2, B, H, dtype=F64, requires_grad=True)
    c0 = torch.randn(2, B, H, dtype=F64, requires_grad=True)
    out, (h, c) = m(x, (h0, c0))
    want, wh, wc = _ln_lstm_stack(m, x, h0, c0)
    torch.testing.assert_close(out, want, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h, wh, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(c, wc, rtol=1e-10, atol=1e-12)
    wy, whn, wcn = (torch.randn(t.shape, dtype=F64) for t in (out, h, c))
    inputs = [x, h0, c0, *m.parameters()]
    got = torch.autograd.grad((out * wy).sum() + (h * whn).sum() + (c * wcn).sum(), inputs)
    ref = torch.autograd.grad((want * wy).sum() + (wh * whn).sum() + (wc * wcn).sum(), inputs)
    for (n, _), a, b in zip([("x", 0), ("h0", 0), ("c0", 0), *m.named_parameters()], got, ref):
        torch.testing.assert_close(a, b, rtol=1e-8, atol=1e-10, msg=lambda s, n=n: f"d{n}: {s}")


def test_only_h0_requiring_a_gradient_gets_the_one_written_here():
    T, B, I, H = 3, 2, 2, 3
    torch.manual_seed(2)
    m = lt.LSTM(I, H, norm="ln", dtype=F64).requires_grad_(False)
    x = torch.randn(T, B, I, dtype=F64)
    h0 = torch.randn(1, B, H, dtype=F64, requires_grad=True)
    c0 = torch.randn(1, B, H, dtype=F64)
    out, _ = m(x, (h0, c0))
    want, _, _ = _ln_lstm_stack(m, x, h0, c0)
    w = torch.randn(T, B, H, dtype=F64)
    got, = torch.autograd.grad((out * w).sum(), [h0])
    ref, = torch.autograd.grad((want * w).sum(), [h0])
    torch.testing.assert_close(got, ref, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_gradcheck_of_a_tiny_float64_layer_in_x_the_states_and_every_parameter(cls):
    T, B, I, H = 2, 2, 2, 2
    torch.manual_seed(3)
    m = cls(I, H, norm="ln", dtype=F64)
    _random_norm_params(m, 4)
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_(True) for p in m.parameters()]
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    states = [torch.randn(1, B, H, dtype=F64, requires_grad=True) for _ in range(2 if cls is lt.LSTM else 1)]
    n_s = len(states)

    def f(x, *rest):
        st, ps = rest[:n_s], rest[n_s:]
        out, fin = torch.func.functional_call(m, dict(zip(names, ps)), (x, st if n_s == 2 else st[0]))
        return (out, *fin) if n_s == 2 else (out, fin)

    assert torch.autograd.gradcheck(f, (x, *states, *params), eps=1e-6, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_an_unsorted_packed_sequence_comes_back_in_its_order_as_nn_lstms(bidirectional):
    T, B, I, H = 3, 3, 2, 3
    torch.manual_seed(5)
    ref = nn.LSTM(I, H, bidirectional=bidirectional, dtype=F64)
    m = lt.LSTM(I, H, norm=None, bidirectional=bidirectional, dtype=F64)
    m.load_state_dict(ref.state_dict())
    x = torch.randn(T, B, I, dtype=F64)
    packed = pack_padded_sequence(x, torch.tensor([1, 3, 2]), enforce_sorted=False)   # sorted [1, 2, 0]
    assert not torch.equal(packed.sorted_indices, packed.unsorted_indices)
    with torch.no_grad():
        out, (h, c) = m(packed)
        want, (wh, wc) = ref(packed)
    assert torch.equal(out.sorted_indices, want.sorted_indices)
    assert torch.equal(out.unsorted_indices, want.unsorted_indices)
    assert torch.equal(out.batch_sizes, want.batch_sizes)
    torch.testing.assert_close(out.data, want.data, rtol=1e-10, atol=1e-12)
    (y, ly), (wy, wly) = pad_packed_sequence(out), pad_packed_sequence(want)
    assert torch.equal(ly, wly)
    torch.testing.assert_close(y, wy, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h, wh, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(c, wc, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_a_stack_keeps_its_dropout_and_forget_bias_as_given_and_shows_them(cls):
    m = cls(3, 4, num_layers=2, norm=None, dropout=0.25, forget_bias=2.0)
    assert m.dropout == 0.25 and m.forget_bias == 2.0
    assert repr(m) == f"{cls.__name__}(3, 4, num_layers=2, norm=None, dropout=0.25)"
    assert repr(cls(3, 4, norm="bn")) == f"{cls.__name__}(3, 4, num_layers=1, norm='bn')"


def _raises(cls, text, fn):
    with pytest.raises(cls, match="^" + re.escape(text) + "$"):
        fn()


def test_the_stacks_refusals_word_for_word():
    m = lt.LSTM(3, 5)
    _raises(ValueError, "LSTM: x must be (T, B, 3) ((B, T, 3) with batch_first=True), not (4, 2, 5).",
            lambda: m(torch.zeros(4, 2, 5)))
    _raises(ValueError, "LSTM: lengths must hold one length per sequence (2), not shape (4,).",
            lambda: m(torch.zeros(4, 2, 3), lengths=torch.tensor([1, 2, 3, 4])))
    _raises(ValueError, "RNN: norm must be 'ln', 'bn' or None, not 'layer'.", lambda: lt.RNN(3, 5, norm="layer"))


def test_the_cells_refusals_word_for_word():
    c = lt.LSTMCell(3, 4)
    _raises(ValueError, "LSTMCell: input must be (B, 3) with B >= 1 (or (3,)), not (2, 4).",
            lambda: c(torch.zeros(2, 4)))
    _raises(ValueError, "LSTMCell: hx must be (h, c), each (2, 4), not (2, 4), (2, 5).",
            lambda: c(torch.zeros(2, 3), (torch.zeros(2, 4), torch.zeros(2, 5))))
    _raises(ValueError, "RNNCell: norm must be 'ln' or None, not 'layer'.", lambda: lt.RNNCell(3, 4, norm="layer"))
    c32 = lt.LSTMCell(3, 4, dtype=torch.float32)
    with pytest.raises(TypeError, match=re.escape("LSTMCell: mixed dtypes (input torch.float64, h torch.float64, "
                                                  "c torch.float64, weights torch.float32)")):
        c32(torch.zeros(2, 3, dtype=F64))


def test_load_exported_keeps_a_float64_runs_dtype_and_outputs(tmp_path):
    T, B, I, H, O = 3, 2, 3, 4, 2
    torch.manual_seed(6)
    src = lt.RNN(I, H, num_layers=2, norm="ln", dtype=F64).eval()
    _random_norm_params(src, 7)
    head = nn.Linear(H, O, dtype=F64)
    tensors = {f"rnn.{k}": v.detach().numpy() for k, v in src.state_dict().items()}
    tensors.update({"head.weight": head.weight.detach().numpy(), "head.bias": head.bias.detach().numpy()})
    config = dict(cell="rnn", norm="ln", input_size=I, hidden_size=H, num_layers=2, forget_bias=1.0,
                  dtype="float64", bidirectional=False, skip=False)
    path = tmp_path / "r.safetensors"
    write_safetensors(path, tensors, {"model_config": json.dumps(config)})
    stack, got_head = lt.load_exported(path)
    assert all(p.dtype == F64 for p in (*stack.parameters(), *got_head.parameters()))
    x = torch.randn(T, B, I, dtype=F64)
    with torch.no_grad():
        (y, h), (wy, wh) = stack(x), src(x)
    assert torch.equal(y, wy) and torch.equal(h, wh)
    assert torch.equal(got_head(y), head(wy))


def test_a_bidirectional_bn_rnns_state_dict_round_trip_after_training():
    T, B, I, H = 3, 4, 2, 3
    torch.manual_seed(8)
    m = lt.RNN(I, H, norm="bn", bidirectional=True, dtype=F64)
    m(torch.randn(T, B, I, dtype=F64))                      # one training pass: the running rows move
    m2 = lt.RNN(I, H, norm="bn", bidirectional=True, dtype=F64)
    m2.load_state_dict(m.state_dict())
    for (n, a), (n2, b) in zip(m.state_dict().items(), m2.state_dict().items()):
        assert n == n2 and torch.equal(a, b), n
    m.eval()
    m2.eval()
    x = torch.randn(T, B, I, dtype=F64)
    with torch.no_grad():
        (y, h), (y2, h2) = m(x), m2(x)
    assert torch.equal(y, y2) and torch.equal(h, h2)
