"""lnrnn.torch against torch's own modules and the arguments given: the stacks' and cells' reprs as torch.nn.LSTM's
and nn.LSTMCell's with lnrnn's norm added; a bidirectional BN-RNN's training growing both directions' running
statistics to T rows, each row BN_MOMENTUM times the batch mean of x_t Wx of its own direction's time (the
reverse direction reads x backwards); a BN stack inside nn.Sequential loading its grown statistics from a
state_dict strictly and giving the same eval outputs; a plain stack's forward and gradients against nn.LSTM with
the same weights in float64 (torch.autograd.gradcheck too); and the refusals, word for word: tensors on two
devices (each named with its device), a backward through a layer op run with keep=False, a PackedSequence given
lengths as well, and bias=False."""
import os
import re

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.config import BN_MOMENTUM  # noqa: E402
from lnrnn.interop.torch import check_tensors  # noqa: E402

F64 = torch.float64
nn = torch.nn


@pytest.mark.parametrize("kw", [dict(), dict(num_layers=2, bidirectional=True),
                                dict(num_layers=2, batch_first=True, dropout=0.25)])
def test_a_stacks_repr_is_nn_lstms_with_the_norm_added(kw):
    ours, ref = lt.LSTM(3, 4, norm=None, dtype=F64, **kw), nn.LSTM(3, 4, dtype=F64, **kw)
    L = kw.get("num_layers", 1)
    want = repr(ref).replace("LSTM(3, 4", "LSTM(3, 4, num_layers=1" if L == 1 else "LSTM(3, 4", 1)
    want = want.replace(f"num_layers={L}", f"num_layers={L}, norm=None", 1)
    assert repr(ours) == want
    assert ("bidirectional=True" in repr(ours)) == kw.get("bidirectional", False)


@pytest.mark.parametrize("cls,ref", [(lt.LSTMCell, nn.LSTMCell), (lt.RNNCell, nn.RNNCell)])
def test_a_cells_repr_is_torchs_with_the_norm_added(cls, ref):
    assert repr(cls(3, 5, norm="ln", dtype=F64)) == repr(ref(3, 5)).replace("(3, 5)", "(3, 5, norm='ln')")
    assert repr(cls(2, 7, norm=None, dtype=F64)) == f"{cls.__name__}(2, 7, norm=None)"


def test_a_bidirectional_bn_rnn_grows_both_directions_statistics_from_its_own_time():
    T, B, I, H = 3, 4, 2, 3
    torch.manual_seed(0)
    m = lt.RNN(I, H, norm="bn", bidirectional=True, dtype=F64)
    x = torch.randn(T, B, I, dtype=F64)
    m.train()
    with torch.no_grad():
        m(x)
    for sfx, xs in [("l0", x), ("l0_reverse", x.flip(0))]:
        Wx = getattr(m, f"weight_ih_{sfx}").detach().t()                    # (I,H)
        rm, rv = getattr(m, f"norm_ih_running_mean_{sfx}"), getattr(m, f"norm_ih_running_var_{sfx}")
        assert rm.shape == rv.shape == (T, H), sfx
        want = BN_MOMENTUM * torch.stack([(xs[t] @ Wx).mean(0) for t in range(T)])   # from means of 0
        torch.testing.assert_close(rm, want, rtol=1e-10, atol=1e-12)
        assert getattr(m, f"norm_hh_running_mean_{sfx}").shape == (T, H)


def test_a_bn_stack_inside_a_module_loads_its_grown_statistics_from_a_state_dict():
    T, B, I, H = 4, 3, 2, 3
    torch.manual_seed(1)
    src = nn.Sequential(lt.RNN(I, H, norm="bn", dtype=F64))
    x = torch.randn(T, B, I, dtype=F64)
    src.train()
    with torch.no_grad():
        src(x)
    sd = src.state_dict()
    assert sd["0.norm_ih_running_mean_l0"].shape == (T, H)
    torch.manual_seed(2)
    dst = nn.Sequential(lt.RNN(I, H, norm="bn", dtype=F64))
    dst.load_state_dict(sd, strict=True)
    for k, v in dst.state_dict().items():
        torch.testing.assert_close(v, sd[k], rtol=0, atol=0)
    src.eval()
    dst.eval()
    with torch.no_grad():
        for a, e in zip(dst[0](x), src[0](x)):
            torch.testing.assert_close(a, e, rtol=0, atol=0)


def test_a_plain_stack_is_nn_lstm_in_values_and_gradients():
    T, B, I, H = 3, 2, 2, 3
    torch.manual_seed(3)
    ref = nn.LSTM(I, H, num_layers=2, dtype=F64)
    ours = lt.LSTM(I, H, num_layers=2, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0, c0 = (torch.randn(2, B, H, dtype=F64, requires_grad=True) for _ in range(2))
    w = torch.randn(T, B, H, dtype=F64)
    outs = []
    for m in (ours, ref):
        y, (h, c) = m(x, (h0, c0))
        loss = (y * w).sum() + (h * h).sum()
        outs.append((y, h, c, *torch.autograd.grad(loss, (x, h0, c0, *m.parameters()))))
    for a, e in zip(*outs):
        torch.testing.assert_close(a, e, rtol=1e-10, atol=1e-12)
    assert torch.autograd.gradcheck(lambda x, h0: ours(x, (h0, c0.detach()))[0], (x, h0))


def test_tensors_on_two_devices_are_refused_naming_each_device():
    x, h = torch.zeros(2, 3, dtype=F64), torch.zeros(2, 3, dtype=F64, device="meta")
    with pytest.raises(RuntimeError) as e:
        check_tensors("LSTM", x=x, h=h)
    assert str(e.value) == ("LSTM: tensors on x on cpu, h on meta: lnrnn runs on the CPU or on one CUDA device; move "
                            "the input and states to the module's device (x.to(m.weight_ih_l0.device)).")


def test_a_backward_through_a_layer_run_with_keep_false_is_refused():
    T, B, I, H = 2, 2, 2, 3
    torch.manual_seed(4)
    m = lt.LSTM(I, H, norm=None, dtype=F64)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    h0, c0 = torch.zeros(B, H, dtype=F64), torch.zeros(B, H, dtype=F64)
    y, final, res, _ = lt.layer_forward(x, [h0, c0], m.layer_params(0), [], None, m.cell, False, False)
    assert res == []
    with pytest.raises(RuntimeError, match=re.escape(
            "this lnrnn layer ran with keep=False (no backward was expected): run it with gradients enabled.")):
        y.sum().backward()


def test_a_packed_sequence_given_lengths_too_is_refused():
    m = lt.RNN(2, 3, norm=None, dtype=F64)
    x = torch.randn(3, 2, 2, dtype=F64)
    lengths = torch.tensor([3, 2])
    packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
    with pytest.raises(ValueError) as e:
        m(packed, lengths=lengths)
    assert str(e.value) == "RNN: a PackedSequence carries its own lengths: pass lengths=None."


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_bias_false_is_refused(cls):
    with pytest.raises(ValueError) as e:
        cls(2, 3, bias=False)
    assert str(e.value) == f"{cls.__name__}: lnrnn's cells always have a bias: pass bias=True."
