"""lnrnn.torch's modules against torch's own with the same weights, against finite differences and against
torch's conventions: an LSTM given a PackedSequence whose lengths sort by a 3-cycle (the unsorting order is
not the sorting one) against torch.nn.LSTM on the same PackedSequence, outputs, states and gradients; a
bidirectional RNN over unsorted lengths with h0 against torch.nn.RNN (outputs, h_n and the gradients of x,
h0 and every parameter) and torch.autograd.gradcheck of it in float64; two-layer stacks built with default
arguments in training mode against torch.nn.LSTM / nn.RNN (torch's dropout default is 0), and the repr
naming dropout exactly where torch's does; a float64 export with a head, written with write_safetensors and
read by load_exported, against torch.nn.LSTM and nn.Linear, and on the meta device when asked; dL/dc_n of
a ragged plain LSTM refused word for word while a full-length one takes it as torch.nn.LSTM does; the
refusals of a lengths tensor of the wrong size and of an unbatched cell's wrong state word for word."""
import json
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence  # noqa: E402

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402
from test_values160_torch import _raises  # noqa: E402

F64 = torch.float64
nn = torch.nn
TIGHT = dict(rtol=1e-10, atol=1e-12)


def _pair(kind, I, H, **kw):
    """torch's module and lnrnn's (norm=None) with the same float64 weights."""
    ref = getattr(nn, kind)(I, H, dtype=F64, **kw)
    m = getattr(lt, kind)(I, H, norm=None, dtype=F64, **kw)
    m.load_state_dict(ref.state_dict())
    return ref, m


def _grads(loss_of, outs, inputs):
    """d(sum of outs * fixed random weights)/d inputs."""
    return torch.autograd.grad(loss_of(outs), inputs, retain_graph=True)   # x may feed both graphs


def test_a_packed_sequence_sorted_by_a_three_cycle_comes_back_in_torchs_row_order():
    T, B, I, H = 4, 3, 2, 2
    torch.manual_seed(0)
    ref, m = _pair("LSTM", I, H)
    lengths = torch.tensor([2, 4, 3])           # sorted order [1, 2, 0], its inverse [2, 0, 1]
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
    assert not torch.equal(packed.sorted_indices, packed.unsorted_indices)
    out, (h, c) = m(packed)
    want, (wh, wc) = ref(packed)
    assert torch.equal(out.sorted_indices, want.sorted_indices)
    assert torch.equal(out.unsorted_indices, want.unsorted_indices)
    got_pad, got_len = pad_packed_sequence(out)
    want_pad, want_len = pad_packed_sequence(want)
    assert torch.equal(got_len, lengths) and torch.equal(want_len, lengths)
    for a, b in ((got_pad, want_pad), (h, wh), (c, wc)):
        torch.testing.assert_close(a, b, **TIGHT)
    wy, whn = torch.randn(got_pad.shape, dtype=F64), torch.randn(h.shape, dtype=F64)
    got = _grads(lambda o: (o[0] * wy).sum() + (o[1] * whn).sum(), (got_pad, h), [x, *m.parameters()])
    exp = _grads(lambda o: (o[0] * wy).sum() + (o[1] * whn).sum(), (want_pad, wh), [x, *ref.parameters()])
    for a, b in zip(got, exp):
        torch.testing.assert_close(a, b, rtol=1e-8, atol=1e-10)


def test_a_bidirectional_rnn_over_unsorted_lengths_as_torchs_and_by_finite_differences():
    T, B, I, H = 3, 3, 2, 2
    torch.manual_seed(1)
    ref, m = _pair("RNN", I, H, bidirectional=True)
    lengths = torch.tensor([2, 3, 1])
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0 = torch.randn(2, B, H, dtype=F64, requires_grad=True)
    out, h = m(x, h0, lengths=lengths)
    wpacked, wh = ref(pack_padded_sequence(x, lengths, enforce_sorted=False), h0)
    want, _ = pad_packed_sequence(wpacked, total_length=T)
    torch.testing.assert_close(out, want, **TIGHT)
    torch.testing.assert_close(h, wh, **TIGHT)
    wy, whn = torch.randn(out.shape, dtype=F64), torch.randn(h.shape, dtype=F64)
    got = _grads(lambda o: (o[0] * wy).sum() + (o[1] * whn).sum(), (out, h), [x, h0, *m.parameters()])
    exp = _grads(lambda o: (o[0] * wy).sum() + (o[1] * whn).sum(), (want, wh), [x, h0, *ref.parameters()])
    names = ["x", "h0", *(n for n, _ in m.named_parameters())]
    for n, a, b in zip(names, got, exp):
        torch.testing.assert_close(a, b, rtol=1e-8, atol=1e-10, msg=lambda s, n=n: f"d{n}: {s}")
    xd, hd = x.detach().clone().requires_grad_(True), h0.detach().clone().requires_grad_(True)
    assert torch.autograd.gradcheck(lambda x, h0: m(x, h0, lengths=lengths), (xd, hd), eps=1e-6, atol=1e-7)


@pytest.mark.parametrize("kind", ["LSTM", "RNN"])
def test_stacks_built_with_default_arguments_train_as_torchs_defaults(kind):
    T, B, I, H = 3, 2, 2, 3
    torch.manual_seed(2)
    ref = getattr(nn, kind)(I, H, num_layers=2, dtype=F64)
    m = getattr(lt, kind)(I, H, num_layers=2, norm=None, dtype=F64)
    m.load_state_dict(ref.state_dict())
    assert m.training and ref.training
    assert m.dropout == ref.dropout == 0.0
    x = torch.randn(T, B, I, dtype=F64)
    with torch.no_grad():
        out, fin = m(x)
        want, wfin = ref(x)
    torch.testing.assert_close(out, want, **TIGHT)
    for a, b in zip(fin if kind == "LSTM" else (fin,), wfin if kind == "LSTM" else (wfin,)):
        torch.testing.assert_close(a, b, **TIGHT)


def test_the_repr_names_dropout_where_torchs_does():
    for p in (0.0, 0.25):
        mine, torchs = repr(lt.LSTM(2, 3, num_layers=2, dropout=p)), repr(nn.LSTM(2, 3, num_layers=2, dropout=p))
        assert ("dropout" in mine) == ("dropout" in torchs), (mine, torchs)
        if p:
            assert f"dropout={p}" in mine


def _export(path, ref, head):
    tensors = {f"rnn.{k}": v.numpy() for k, v in ref.state_dict().items()}
    tensors.update({f"head.{k}": v.numpy() for k, v in head.state_dict().items()})
    config = dict(cell="lstm", norm="none", input_size=ref.input_size, hidden_size=ref.hidden_size,
                  num_layers=ref.num_layers, forget_bias=1.0, dtype="float64")
    write_safetensors(path, tensors, {"model_config": json.dumps(config)})


def test_a_float64_export_loads_as_torchs_modules_in_float64_and_on_the_device_asked(tmp_path):
    T, B, I, H, O = 3, 2, 2, 3, 4
    torch.manual_seed(3)
    ref, head = nn.LSTM(I, H, dtype=F64), nn.Linear(H, O, dtype=F64)
    path = tmp_path / "m.safetensors"
    _export(path, ref, head)
    stack, mine = lt.load_exported(path)
    assert all(p.dtype == F64 for p in (*stack.parameters(), *mine.parameters()))
    assert not stack.training and not mine.training
    x = torch.randn(T, B, I, dtype=F64)
    with torch.no_grad():
        out, (h, c) = stack(x)
        want, (wh, wc) = ref(x)
        for a, b in ((out, want), (h, wh), (c, wc), (mine(out), head(want))):
            torch.testing.assert_close(a, b, **TIGHT)
    stack, mine = lt.load_exported(path, device="meta")
    for t in (*stack.parameters(), *stack.buffers(), *mine.parameters()):
        assert t.device.type == "meta" and t.dtype == F64


def test_dc_n_of_a_ragged_plain_lstm_is_refused_and_of_a_full_one_taken_as_torchs():
    T, B, I, H = 3, 2, 2, 3
    torch.manual_seed(4)
    ref, m = _pair("LSTM", I, H)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    wh, wc = torch.randn(1, B, H, dtype=F64), torch.randn(1, B, H, dtype=F64)
    _, (h, c) = m(x, lengths=torch.tensor([3, 2]))
    _raises(NotImplementedError, "lnrnn's LSTM kernels take no gradient for the final cell state c_n: use the "
                                 "output sequence or h_n in the loss, or detach c_n.",
            lambda: torch.autograd.grad((h * wh).sum() + (c * wc).sum(), [x]))
    _, (h, c) = m(x)
    _, (rh, rc) = ref(x)
    got = torch.autograd.grad((h * wh).sum() + (c * wc).sum(), [x, *m.parameters()])
    exp = torch.autograd.grad((rh * wh).sum() + (rc * wc).sum(), [x, *ref.parameters()])
    for a, b in zip(got, exp):
        torch.testing.assert_close(a, b, rtol=1e-8, atol=1e-10)


def test_refusals_of_wrong_lengths_and_an_unbatched_cells_state_word_for_word():
    m = lt.LSTM(2, 3, dtype=F64)
    _raises(ValueError, "LSTM: lengths must hold one length per sequence (2), not shape (3,).",
            lambda: m(torch.zeros(4, 2, 2, dtype=F64), lengths=[1, 2, 3]))
    x = torch.zeros(2, dtype=F64)
    _raises(ValueError, "LSTMCell: hx must be (h, c), each (3,), not (4,), (4,).",
            lambda: lt.LSTMCell(2, 3, dtype=F64)(x, (torch.zeros(4, dtype=F64), torch.zeros(4, dtype=F64))))
    _raises(ValueError, "RNNCell: hx must be h, each (3,), not (1, 3).",
            lambda: lt.RNNCell(2, 3, dtype=F64)(x, torch.zeros(1, 3, dtype=F64)))
