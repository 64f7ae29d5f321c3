"""lnrnn.torch's options through the binding, second pass: a bidirectional BatchNorm stack's backward direction
updates its own running statistics as a one-direction stack of the reverse parameters does over x reversed (the
module docstring's definition of the backward direction); layers above the first are built for D*H inputs (I + D*H
with skip connections), their state_dict shapes written out here; a skip stack's out is [y_0 | y_1] of two
torch.nn.LSTM layers run here on its weights, layer 1 reading [x | y_0] (with torch.autograd.gradcheck at float64);
a stack and head built from a run's tensors come back in eval mode with the head's own values; tensors on two
devices are refused word for word, naming the module."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from test_torch_bidirectional import _module  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

F64 = torch.float64
STATS = ["norm_ih_running_mean", "norm_ih_running_var", "norm_hh_running_mean", "norm_hh_running_var",
         "norm_cell_running_mean", "norm_cell_running_var"]


def test_a_bidirectional_batchnorm_stacks_reverse_statistics_are_a_forward_stacks_over_x_reversed():
    T, B, I, H = 5, 3, 2, 2
    bi = _module("bn-lstm", I=I, H=H, layers=1, seed=41)
    one = lt.LSTM(I, H, 1, norm="bn", dtype=F64)
    state = bi.state_dict()
    one.load_state_dict({k.replace("_l0_reverse", "_l0"): v for k, v in state.items() if k.endswith("_reverse")})
    before = {n: state[f"{n}_l0_reverse"].clone() for n in STATS}
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(241)) * 2 + 0.5
    bi.train()
    one.train()
    with torch.no_grad():
        bi(x)
        one(x.flip(0))
    for n in STATS:
        got, want = getattr(bi, f"{n}_l0_reverse"), getattr(one, f"{n}_l0")
        assert got.shape == (T, want.shape[1])
        torch.testing.assert_close(got, want, rtol=0, atol=1e-13)
        assert not torch.allclose(got, before[n].expand_as(got))   # one training pass moved them


@pytest.mark.parametrize("skip, width", [(False, 10), (True, 13)])
def test_layers_above_the_first_read_both_directions(skip, width):
    m = lt.LSTM(3, 5, num_layers=3, norm=None, bidirectional=True, skip=skip)
    shapes = {k: tuple(v.shape) for k, v in m.state_dict().items()}
    for k in range(3):
        for sfx in (f"l{k}", f"l{k}_reverse"):
            assert shapes[f"weight_ih_{sfx}"] == (20, 3 if k == 0 else width)
            assert shapes[f"weight_hh_{sfx}"] == (20, 5)
            assert shapes[f"bias_ih_{sfx}"] == shapes[f"bias_hh_{sfx}"] == (20,)
    assert len(shapes) == 3 * 2 * 4
    out, (h, c) = m(torch.zeros(4, 2, 3))
    assert out.shape == (4, 2, 30 if skip else 10) and h.shape == c.shape == (6, 2, 5)


def _by_hand(m, x):
    """A two-layer skip stack as two torch.nn.LSTM layers on m's weights: out = [y_0 | y_1], layer 1 reads
    [x | y_0]."""
    ys, inp = [], x
    for k in range(2):
        layer = torch.nn.LSTM(inp.shape[2], m.hidden_size, dtype=F64)
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        layer.load_state_dict({f"{n}_l0": getattr(m, f"{n}_l{k}") for n in names})
        y, _ = layer(inp)
        ys.append(y)
        inp = torch.cat([x, y], dim=2)
    return torch.cat(ys, dim=2)


def test_a_skip_stacks_output_is_every_layers_output_as_torchs_lstm_gives_it():
    torch.manual_seed(5)
    m = lt.LSTM(2, 3, num_layers=2, norm=None, skip=True, dtype=F64)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, dtype=F64) * 0.6 - 0.3)
    x = torch.randn(4, 2, 2, dtype=F64, generator=torch.Generator().manual_seed(7))
    out, _ = m(x)
    assert out.shape == (4, 2, 6)
    torch.testing.assert_close(out, _by_hand(m, x), rtol=0, atol=1e-12)
    w = torch.randn(4, 2, 6, dtype=F64, generator=torch.Generator().manual_seed(8))
    assert torch.autograd.gradcheck(lambda xs: (m(xs)[0] * w).sum(), (x.clone().requires_grad_(),), fast_mode=True)


def test_a_stack_and_head_built_from_a_runs_tensors_are_in_eval_mode():
    torch.manual_seed(3)
    src = lt.LSTM(2, 3, num_layers=1, norm="ln", dtype=F64)
    W, b = np.arange(6.0).reshape(2, 3) / 10, np.array([0.5, -1.0])
    tensors = {f"rnn.{k}": v.numpy() for k, v in src.state_dict().items()}
    tensors.update({"head.weight": W, "head.bias": b})
    config = dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                  forget_bias=1.0)
    stack, head = it._from_tensors(config, tensors)
    assert stack.training is False and head.training is False
    h = torch.tensor([[1.0, 2.0, -1.0]], dtype=F64)
    torch.testing.assert_close(head(h), torch.tensor([[0.0 + 0.2 - 0.2 + 0.5, 0.3 + 0.8 - 0.5 - 1.0]], dtype=F64),
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_tensors_on_two_devices_are_refused_naming_the_module(cls):
    m = cls(2, 3)
    states = "hx[0] on meta, hx[1] on meta" if cls is lt.LSTM else "hx[0] on meta"
    _raises(RuntimeError, f"{cls.__name__}: tensors on x on meta, {states}, weights on cpu: lnrnn runs on the CPU "
            "or on one CUDA device; move the input and states to the module's device (x.to(m.weight_ih_l0.device)).",
            lambda: m(torch.zeros(4, 1, 2, device="meta")))
