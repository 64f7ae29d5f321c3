"""lnrnn.torch against torch's own modules and definitions: an unbatched (T, I) input to a batch_first stack
(nn.LSTM reads it as (T, I) whatever batch_first says), eval mode without dropout between layers (as nn.LSTM's),
a float64 run's stack and head rebuilt in float64 (weights bit for bit, the head applied to the stack's output),
the functional layer op leaving the statistics it was given alone, a bidirectional BatchNorm stack's two
directions each with their own statistics (against a one-direction stack run on the reversed rows), a
bidirectional stack over rows of different lengths against nn.LSTM on the packed rows, and lnrnn.torch
exporting every public name of lnrnn.interop.torch."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import exported_tensors, write_safetensors  # noqa: E402
from lnrnn.interop.torch import _from_tensors  # noqa: E402
from lnrnn.model.models import build_model, head_config  # noqa: E402

F64 = torch.float64


def _copy(m, **kw):
    """A module of m's class and sizes with kw changed, holding m's state_dict."""
    other = type(m)(m.input_size, m.hidden_size, m.num_layers, norm=m.norm, dtype=F64,
                    **{**dict(batch_first=m.batch_first, dropout=m.dropout, bidirectional=m.bidirectional), **kw})
    other.load_state_dict(m.state_dict())
    return other


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_unbatched_input_of_a_batch_first_stack_is_time_major(cls):
    torch.manual_seed(0)
    m = cls(3, 4, 2, norm=None, batch_first=True, dtype=F64)
    x = torch.randn(5, 3, dtype=F64)                              # (T, I): 5 steps
    out, _ = m(x)
    assert out.shape == (5, 4)
    ref = getattr(torch.nn, cls.__name__)(3, 4, 2, batch_first=True, dtype=F64)
    ref.load_state_dict(m.state_dict())
    want, _ = ref(x)
    torch.testing.assert_close(out, want, rtol=1e-10, atol=1e-12)
    tm, _ = _copy(m, batch_first=False)(x)
    torch.testing.assert_close(out, tm, rtol=0, atol=0)


@pytest.mark.parametrize("norm", [None, "ln"])
def test_eval_mode_has_no_dropout_between_layers(norm):
    torch.manual_seed(1)
    m = lt.LSTM(3, 4, 3, norm=norm, dropout=0.5, dtype=F64).eval()
    x = torch.randn(6, 2, 3, dtype=F64)
    with torch.no_grad():
        out, (h, c) = m(x)
        again, _ = m(x)
        plain, (h0, c0) = _copy(m, dropout=0.0).eval()(x)
    torch.testing.assert_close(out, again, rtol=0, atol=0)
    torch.testing.assert_close(out, plain, rtol=0, atol=0)
    torch.testing.assert_close(h, h0, rtol=0, atol=0)
    if norm is None:
        ref = torch.nn.LSTM(3, 4, 3, dropout=0.5, dtype=F64).eval()
        ref.load_state_dict(m.state_dict())
        with torch.no_grad():
            torch.testing.assert_close(out, ref(x)[0], rtol=1e-10, atol=1e-12)
    m.train()                                                    # training mode does drop
    with torch.no_grad():
        assert not torch.equal(m(x)[0], plain)


@pytest.mark.parametrize("via_file", [False, True])
def test_a_float64_run_comes_back_in_float64(tmp_path, via_file):
    model = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=2, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 4)), seed=3)
    tensors = exported_tensors(model)
    if via_file:
        import json
        path = tmp_path / "w.safetensors"
        write_safetensors(str(path), tensors, {"model_config": json.dumps(model.config)})
        stack, head = lt.load_exported(str(path))
    else:
        stack, head = _from_tensors(model.config, tensors)
    sd = stack.state_dict()
    for name, v in tensors.items():
        if name.startswith("rnn."):
            t = sd[name[len("rnn."):]]
            assert t.dtype == F64
            np.testing.assert_array_equal(t.numpy(), v)
    assert head.weight.dtype == F64 and head.bias.dtype == F64
    np.testing.assert_array_equal(head.weight.detach().numpy(), tensors["head.weight"])
    x = torch.randn(5, 2, 2, dtype=F64)
    with torch.no_grad():
        out, _ = stack(x)
        logits = head(out[-1])
    W, b = torch.from_numpy(tensors["head.weight"]), torch.from_numpy(tensors["head.bias"])
    torch.testing.assert_close(logits, out[-1] @ W.T + b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_the_layer_op_leaves_the_statistics_it_was_given(cls):
    torch.manual_seed(2)
    m = cls(3, 4, norm="bn", dtype=F64)
    T = 5
    x = torch.randn(T, 2, 3, dtype=F64)
    m._grow_buffers(0, T)
    bufs = m.layer_buffers(0)
    before = [b.clone() for b in bufs]
    state = [torch.zeros(2, 4, dtype=F64) for _ in range(m.spec.nstate)]
    with torch.no_grad():
        _, _, _, new = lt.layer_forward(x, state, m.layer_params(0), bufs, None, m.cell, True, False)
    for b, b0, nb in zip(bufs, before, new):
        assert torch.equal(b, b0)                                # the op is functional: inputs untouched
        assert not torch.equal(nb, b0)                           # the update comes back as a new tensor
        assert nb.data_ptr() != b.data_ptr()


def _randomized_stats(m, T, seed):
    g = torch.Generator().manual_seed(seed)
    for name, b in list(m.named_buffers()):
        v = torch.rand((T, b.shape[1]), generator=g, dtype=F64)
        setattr(m, name, v - 0.5 if "mean" in name else v + 0.5)


def _direction(m, d):
    """A one-direction stack holding direction d of m's single layer (weights and statistics)."""
    one = type(m)(m.input_size, m.hidden_size, 1, norm="bn", dtype=F64)
    sfx = "_l0_reverse" if d else "_l0"
    sd = {k[:-len(sfx)] + "_l0": v for k, v in m.state_dict().items() if k.endswith(sfx)}
    one.load_state_dict(sd)
    return one


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_bidirectional_batchnorm_keeps_statistics_per_direction(cls):
    torch.manual_seed(3)
    T, H = 4, 3
    m = cls(2, H, 1, norm="bn", bidirectional=True, dtype=F64)
    _randomized_stats(m, T, 5)
    x = torch.randn(T, 3, 2, dtype=F64)
    fwd, rev = _direction(m, 0), _direction(m, 1)
    m.eval(), fwd.eval(), rev.eval()
    with torch.no_grad():
        out, _ = m(x)
        torch.testing.assert_close(out[..., :H], fwd(x)[0], rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(out[..., H:], rev(x.flip(0))[0].flip(0), rtol=1e-12, atol=1e-12)
    m.train(), fwd.train(), rev.train()
    with torch.no_grad():
        m(x), fwd(x), rev(x.flip(0))
    got = dict(m.named_buffers())
    for one, sfx in ((fwd, "_l0"), (rev, "_l0_reverse")):
        for name, b in one.named_buffers():
            torch.testing.assert_close(got[name[:-len("_l0")] + sfx], b, rtol=1e-12, atol=1e-12)


def test_the_short_module_exports_every_public_name():
    import lnrnn.interop.torch as it
    assert sorted(lt.__all__) == sorted(it.__all__)
    space = {}
    exec("from lnrnn.torch import *", space)
    for name in it.__all__:
        assert space[name] is getattr(it, name)


@pytest.mark.parametrize("num_layers", [1, 2])
def test_bidirectional_rows_of_different_lengths_equal_nn_lstm_on_packed_rows(num_layers):
    torch.manual_seed(4)
    T, H = 5, 3
    m = lt.LSTM(2, H, num_layers, norm=None, bidirectional=True, dtype=F64)
    ref = torch.nn.LSTM(2, H, num_layers, bidirectional=True, dtype=F64)
    ref.load_state_dict(m.state_dict())
    x = torch.randn(T, 4, 2, dtype=F64)
    lengths = torch.tensor([5, 3, 1, 4])
    with torch.no_grad():
        out, (h, c) = m(x, lengths=lengths)
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
        got, (h_ref, c_ref) = ref(packed)
        want, _ = torch.nn.utils.rnn.pad_packed_sequence(got, total_length=T)
    torch.testing.assert_close(out, want, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(h, h_ref, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(c, c_ref, rtol=1e-10, atol=1e-12)
