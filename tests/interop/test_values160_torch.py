"""lnrnn.torch's modules against torch's own with the same weights, and against rules applied by hand: a
batch_first LSTM and RNN given an unbatched (T, I) sequence, with hx given and omitted, against torch.nn.LSTM /
torch.nn.RNN in float64 and float32 (the parameters in the module's dtype); an LSTMCell given an unbatched step
against torch.nn.LSTMCell; a two-layer bidirectional LSTM over unsorted lengths against torch.nn.LSTM on the
PackedSequence, with the gradients of x, h0, c0 and every parameter through autograd of both; the BN-LSTM's
running statistics of x_t W_ih^T after training passes of 3 and then 5 steps against the momentum rule by
hand (buffers grown to the sequence, new rows repeating the last); the refusals' one-line messages word for
word (mixed dtypes, a tensor on the meta device, float lengths, the layer op's own check, a cell's
norm='bn'); load_exported of a synthesis run's config; and lnrnn.torch's names, those of lnrnn.interop.torch."""
import json
import os
import re

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence  # noqa: E402

import lnrnn.interop.torch as interop_torch  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn.config import BN_MOMENTUM  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402

F64 = torch.float64
nn = torch.nn


def _raises(cls, text, fn):
    with pytest.raises(cls, match="^" + re.escape(text) + "$"):
        fn()


@pytest.mark.parametrize("kind, dtype", [("LSTM", F64), ("RNN", torch.float32)])
def test_a_batch_first_stack_reads_an_unbatched_sequence_time_major_as_torchs(kind, dtype):
    T, I, H = 4, 3, 2                                      # T != I: a transposed (I, T) input is refused
    torch.manual_seed(0)
    ref = getattr(nn, kind)(I, H, batch_first=True, dtype=dtype)
    m = getattr(lt, kind)(I, H, norm=None, batch_first=True, dtype=dtype)
    assert all(p.dtype == dtype for p in m.parameters())
    m.load_state_dict(ref.state_dict())
    x = torch.randn(T, I, dtype=dtype)
    hx = tuple(torch.randn(1, H, dtype=dtype) for _ in range(2 if kind == "LSTM" else 1))
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == F64 else dict(rtol=1e-5, atol=1e-6)
    with torch.no_grad():
        for state in (None, hx if kind == "LSTM" else hx[0]):
            out, fin = m(x, state)
            want, wfin = ref(x, state)
            assert out.shape == (T, H) and out.dtype == dtype
            torch.testing.assert_close(out, want, **tol)
            for a, b in zip(fin if kind == "LSTM" else (fin,), wfin if kind == "LSTM" else (wfin,)):
                assert a.shape == (1, H)
                torch.testing.assert_close(a, b, **tol)


def test_an_lstm_cell_takes_an_unbatched_step_as_torchs():
    I, H = 3, 2
    torch.manual_seed(1)
    ref = nn.LSTMCell(I, H, dtype=F64)
    c = lt.LSTMCell(I, H, norm=None, dtype=F64)
    c.load_state_dict(ref.state_dict())
    x = torch.randn(I, dtype=F64)
    hx = (torch.randn(H, dtype=F64), torch.randn(H, dtype=F64))
    with torch.no_grad():
        for state in (None, hx):
            (h, cc), (wh, wc) = c(x, state), ref(x, state)
            assert h.shape == cc.shape == (H,)
            torch.testing.assert_close(h, wh, rtol=1e-10, atol=1e-12)
            torch.testing.assert_close(cc, wc, rtol=1e-10, atol=1e-12)


def test_a_two_layer_bidirectional_lstm_over_unsorted_lengths_and_its_gradients_as_torchs():
    T, B, I, H = 3, 3, 2, 2
    torch.manual_seed(2)
    ref = nn.LSTM(I, H, num_layers=2, bidirectional=True, dtype=F64)
    m = lt.LSTM(I, H, num_layers=2, norm=None, bidirectional=True, dtype=F64)
    m.load_state_dict(ref.state_dict())
    lengths = torch.tensor([2, 3, 1])
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0 = torch.randn(4, B, H, dtype=F64, requires_grad=True)
    c0 = torch.randn(4, B, H, dtype=F64, requires_grad=True)
    out, (h, c) = m(x, (h0, c0), lengths=lengths)
    wpacked, (wh, wc) = ref(pack_padded_sequence(x, lengths, enforce_sorted=False), (h0, c0))
    want, _ = pad_packed_sequence(wpacked, total_length=T)
    for a, b in ((out, want), (h, wh), (c, wc)):
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-12)
    wy, whn = torch.randn(out.shape, dtype=F64), torch.randn(h.shape, dtype=F64)
    names = ["x", "h0", "c0", *(n for n, _ in m.named_parameters())]
    got = torch.autograd.grad((out * wy).sum() + (h * whn).sum(), [x, h0, c0, *m.parameters()])
    exp = torch.autograd.grad((want * wy).sum() + (wh * whn).sum(), [x, h0, c0, *ref.parameters()])
    for n, a, b in zip(names, got, exp):
        torch.testing.assert_close(a, b, rtol=1e-8, atol=1e-10, msg=lambda s, n=n: f"d{n}: {s}")


def test_bn_running_means_follow_the_momentum_rule_and_the_buffers_grow_to_the_sequence():
    B, I, H = 4, 2, 3
    torch.manual_seed(3)
    m = lt.LSTM(I, H, norm="bn", dtype=F64)
    mean = m.norm_ih_running_mean_l0.clone()               # (1,4H) before any pass
    for T in (3, 5):
        x = torch.randn(T, B, I, dtype=F64)
        m(x)
        batch = (x @ m.weight_ih_l0.detach().t()).mean(1)   # (T,4H): the input side's batch means per step
        grown = mean[np.minimum(np.arange(T), mean.shape[0] - 1)]   # new rows repeat the last
        mean = (1 - BN_MOMENTUM) * grown + BN_MOMENTUM * batch
        for n, b in m.named_buffers():
            assert b.shape[0] == T, n
        torch.testing.assert_close(m.norm_ih_running_mean_l0, mean, rtol=1e-10, atol=1e-12)


def test_the_refusals_say_what_to_do_word_for_word():
    m = lt.LSTM(2, 3, dtype=torch.float32)
    _raises(TypeError, "LSTM: mixed dtypes (x torch.float64, hx[0] torch.float64, hx[1] torch.float64, weights "
                       "torch.float32): pass every tensor in the module's dtype (x.to(m.weight_ih_l0.dtype)).",
            lambda: m(torch.zeros(4, 2, 2, dtype=F64)))
    _raises(RuntimeError, "LSTM: tensors on x on meta, hx[0] on meta, hx[1] on meta, weights on cpu: lnrnn runs "
                          "on the CPU or on one CUDA device; move the input and states to the module's device "
                          "(x.to(m.weight_ih_l0.device)).",
            lambda: m(torch.zeros(4, 2, 2, device="meta")))
    m64 = lt.LSTM(2, 3, dtype=F64)
    _raises(TypeError, "LSTM: lengths must be whole numbers (an integer tensor or a list of ints), not "
                       "torch.float32: a length of 1.5 steps means nothing.",
            lambda: m64(torch.zeros(4, 2, 2, dtype=F64), lengths=torch.tensor([1.0, 2.0])))
    r = lt.RNN(2, 3, dtype=F64)
    _raises(TypeError, "lnrnn ln-rnn layer: mixed dtypes (x torch.float64, state[0] torch.float32, Wx "
                       "torch.float64, Wh torch.float64, b torch.float64, g torch.float64): pass every tensor in "
                       "the module's dtype (x.to(m.weight_ih_l0.dtype)).",
            lambda: lt.layer_forward(torch.zeros(2, 1, 2, dtype=F64), [torch.zeros(1, 3)], r.layer_params(0), [],
                                     None, r.cell, False, False))
    for cls, stack in ((lt.LSTMCell, "LSTM"), (lt.RNNCell, "RNN")):
        _raises(ValueError, f"{cls.__name__}: norm='bn' keeps batch statistics for every time step, and one step "
                            f"does not know its time: use norm='ln' or None, or a whole sequence "
                            f"({stack}(norm='bn')).", lambda: cls(2, 3, norm="bn"))


def test_load_exported_refuses_a_synthesis_run_in_one_sentence(tmp_path):
    config = dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, forget_bias=1.0,
                  dtype="float64", window=dict(K=2, C=5))
    path = tmp_path / "s.safetensors"
    write_safetensors(path, {"rnn.weight_ih_l0": np.zeros((16, 3))}, {"model_config": json.dumps(config)})
    _raises(ValueError, "this run is a synthesis network (it reads a text through an attention window), which "
                        "lnrnn.torch has no module for; lnrnn export gives its weights (lnrnn/interop/export.py)",
            lambda: lt.load_exported(path))


def test_lnrnn_torch_offers_every_name_it_lists_as_the_bindings_own():
    assert lt.__all__ == interop_torch.__all__
    names = {}
    exec("from lnrnn.torch import *", names)
    for n in lt.__all__:
        assert names[n] is getattr(interop_torch, n), n
