"""lnrnn.torch's options as they reach the kernels, judged against torch itself and by definition.

The judges: ``torch.nn.LSTM`` / ``nn.RNN`` (their state_dict names and shapes, written out here; their outputs,
final states and gradients with nonzero ``bias_hh``, batch_first, unbatched input, given h0/c0 and both
directions); ``torch.autograd.gradcheck`` (float64 central differences) of a two-layer bidirectional LN-LSTM
with every option on at once (batch_first, skip connections, ragged rows with one of length 0, h0 and c0,
dropout between the layers under a fixed seed); the shapes ``layer_forward`` promises, (T, B, H) at I != H,
under a fake-tensor mode as torch.compile traces it; and the refusals, word for word, naming what was passed.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

F64 = torch.float64


# ---- state_dict names and shapes ----

def test_a_plain_two_layer_lstms_state_dict_has_nn_lstms_names_and_shapes():
    """G = 4H rows per gate block; layer 1 reads H; no *_reverse names unless bidirectional."""
    I, H = 3, 5
    want = {"weight_ih_l0": (20, 3), "weight_hh_l0": (20, 5), "bias_ih_l0": (20,), "bias_hh_l0": (20,),
            "weight_ih_l1": (20, 5), "weight_hh_l1": (20, 5), "bias_ih_l1": (20,), "bias_hh_l1": (20,)}
    m = lt.LSTM(I, H, num_layers=2, norm=None, dtype=F64)
    assert {k: tuple(v.shape) for k, v in m.state_dict().items()} == want
    assert list(m.state_dict()) == list(torch.nn.LSTM(I, H, num_layers=2).state_dict())


def test_a_bidirectional_skip_stack_reads_x_and_both_directions_above_layer_0():
    """Layer 1 of LSTM(3, 2, 2 layers, bidirectional, skip) reads [x (3) | h_0 forward (2) | h_0 backward (2)]."""
    m = lt.LSTM(3, 2, num_layers=2, norm="ln", bidirectional=True, skip=True, dtype=F64)
    shapes = {k: tuple(v.shape) for k, v in m.state_dict().items() if k.startswith("weight_")}
    assert shapes == {"weight_ih_l0": (8, 3), "weight_hh_l0": (8, 2), "weight_ih_l0_reverse": (8, 3),
                      "weight_hh_l0_reverse": (8, 2), "weight_ih_l1": (8, 7), "weight_hh_l1": (8, 2),
                      "weight_ih_l1_reverse": (8, 7), "weight_hh_l1_reverse": (8, 2)}
    out, (h_n, c_n) = m(torch.randn(4, 3, 3, dtype=F64))
    assert out.shape == (4, 3, 8) and h_n.shape == c_n.shape == (4, 3, 2)


# ---- nn.LSTM's values ----

def _run(m, x, hx):
    """out, final states and the gradients of x, every state and every parameter of one weighted loss."""
    x = x.clone().requires_grad_()
    hx = [s.clone().requires_grad_() for s in hx]
    out, final = m(x, tuple(hx) if len(hx) == 2 else hx[0])
    final = list(final) if isinstance(final, tuple) else [final]
    g = torch.Generator().manual_seed(11)
    loss = (out * torch.randn(out.shape, generator=g, dtype=F64)).sum()
    loss = loss + sum((f * torch.randn(f.shape, generator=g, dtype=F64)).sum() for f in final[:1])
    loss.backward()
    return [out, *final, x.grad, *(s.grad for s in hx), *(p.grad for p in m.parameters())]


@pytest.mark.parametrize("kind,bidirectional,batch_first,unbatched", [
    ("lstm", False, True, False), ("lstm", True, False, False), ("rnn", True, True, False),
    ("lstm", True, False, True), ("rnn", False, False, True)])
def test_nn_lstms_weights_with_nonzero_bias_hh_give_its_values_and_gradients(kind, bidirectional, batch_first,
                                                                             unbatched):
    """nn.LSTM's/nn.RNN's own initial weights (bias_hh drawn, nonzero) loaded strictly: out, h_n (c_n) and the
    gradients of x, h0 (c0) and every parameter, batch_first or unbatched, one or two directions."""
    T, B, I, H, L = 5, 3, 3, 4, 2
    D = 2 if bidirectional else 1
    torch.manual_seed(7)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=bidirectional,
                                                               batch_first=batch_first, dtype=F64)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, bidirectional=bidirectional,
                                                  batch_first=batch_first, dtype=F64)
    assert all(bool(torch.all(ref.get_parameter(f"bias_hh_l{k}") != 0)) for k in range(L))
    ours.load_state_dict(ref.state_dict(), strict=True)
    g = torch.Generator().manual_seed(8)
    shape = (T, I) if unbatched else (B, T, I) if batch_first else (T, B, I)
    x = torch.randn(shape, dtype=F64, generator=g)
    hx = [torch.randn((L * D, H) if unbatched else (L * D, B, H), dtype=F64, generator=g)
          for _ in range(2 if kind == "lstm" else 1)]
    want, got = _run(ref, x, hx), _run(ours, x, hx)
    assert got[0].shape == want[0].shape == (shape[:-1] + (D * H,))
    for a, b in zip(got, want):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)


# ---- gradients with every option on ----

def test_gradcheck_with_every_option_on_at_once():
    """Two bidirectional LN-LSTM layers, batch_first, skip connections, rows of lengths 3, 1, 0 and 2, given h0
    and c0, dropout 0.3 between the layers (the same mask on every call: the seed is set inside f): dx, dh0,
    dc0 and every parameter's gradient against float64 central differences of out and h_n (fast mode: random
    projections of the Jacobian, each of its entries weighed in)."""
    B, T, I, H = 4, 3, 2, 2
    torch.manual_seed(0)
    m = lt.LSTM(I, H, num_layers=2, norm="ln", batch_first=True, bidirectional=True, skip=True, dropout=0.3,
                dtype=F64)
    g = torch.Generator().manual_seed(1)
    names = [n for n, _ in m.named_parameters()]
    params = [(p.detach() + torch.rand(p.shape, generator=g, dtype=F64) * 0.6 - 0.3).requires_grad_()
              for p in m.parameters()]
    x = torch.randn(B, T, I, dtype=F64, generator=g).requires_grad_()
    h0, c0 = [(torch.rand(4, B, H, generator=g, dtype=F64) - 0.5).requires_grad_() for _ in range(2)]
    lengths = torch.tensor([3, 1, 0, 2])

    def f(x, h0, c0, *ps):
        torch.manual_seed(5)
        out, (h_n, c_n) = torch.func.functional_call(m, dict(zip(names, ps)), (x, (h0, c0)), {"lengths": lengths})
        return out, h_n

    out, h_n = f(x, h0, c0, *params)
    assert out.shape == (B, T, 8) and h_n.shape == (4, B, H)
    assert bool(torch.all(out[1, 1:] == 0)) and bool(torch.all(out[2] == 0))      # padded steps: zeros
    torch.testing.assert_close(h_n[:, 2], h0[:, 2], rtol=0, atol=0)              # length 0: h_n is h0
    assert torch.autograd.gradcheck(f, (x, h0, c0, *params), fast_mode=True)


def test_layer_forward_promises_t_b_h_under_a_fake_tensor_mode():
    """torch.compile traces layer_forward with fake tensors: y must come out (T, B, H), the final states
    (B, H), and the residuals as the real call's, at I = 2 != H = 3."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    T, B, I, H = 5, 4, 2, 3
    m = lt.LSTM(I, H, norm="ln", dtype=F64)
    params = [p.detach() for p in m.layer_params(0)]
    x, h0, c0 = torch.randn(T, B, I, dtype=F64), torch.zeros(B, H, dtype=F64), torch.zeros(B, H, dtype=F64)
    y, final, res, _ = lt.layer_forward(x, [h0, c0], params, [], None, m.cell, True, True)
    assert y.shape == (T, B, H) and [tuple(f.shape) for f in final] == [(B, H), (B, H)]
    with FakeTensorMode() as mode:
        fake = [mode.from_tensor(t) for t in (x, h0, c0, *params)]
        fy, ffinal, fres, _ = lt.layer_forward(fake[0], fake[1:3], fake[3:], [], None, m.cell, True, True)
    assert fy.shape == (T, B, H) and [tuple(f.shape) for f in ffinal] == [(B, H), (B, H)]
    assert [(tuple(r.shape), r.dtype) for r in fres] == [(tuple(r.shape), r.dtype) for r in res]


# ---- refusals, word for word ----

def test_a_bidirectional_stacks_hx_refusal_counts_both_directions():
    m = lt.RNN(3, 4, num_layers=3, bidirectional=True, dtype=F64)
    _raises(ValueError, "RNN: hx holds a (3, 2, 4) state where (6, 2, 4) was expected "
                        "(num_layers * 2, batch, hidden_size).",
            lambda: m(torch.zeros(5, 2, 3, dtype=F64), torch.zeros(3, 2, 4, dtype=F64)))


def test_a_c0_of_the_wrong_shape_is_refused_after_a_right_h0():
    m = lt.LSTM(3, 2, dtype=F64)
    x, h0 = torch.zeros(4, 2, 3, dtype=F64), torch.zeros(1, 2, 2, dtype=F64)
    _raises(ValueError, "LSTM: hx holds a (1, 3, 2) state where (1, 2, 2) was expected "
                        "(num_layers, batch, hidden_size).",
            lambda: m(x, (h0, torch.zeros(1, 3, 2, dtype=F64))))
    _raises(ValueError, "LSTM: hx holds a (2, 2, 2) state where (1, 2, 2) was expected "
                        "(num_layers, batch, hidden_size).",
            lambda: m(x, (h0, torch.zeros(2, 2, 2, dtype=F64))))


@pytest.mark.parametrize("cls", [lt.LSTM, lt.RNN])
def test_a_module_dtype_the_kernels_lack_is_named_as_passed(cls):
    for dtype in (torch.float16, torch.bfloat16):
        _raises(TypeError, f"{cls.__name__}: lnrnn's kernels run float32 or float64 only: pass dtype=torch.float32 "
                           f"or torch.float64, not {dtype}.", lambda: cls(3, 2, dtype=dtype))


def test_a_projection_is_refused_naming_the_proj_size_passed():
    _raises(ValueError, "LSTM: lnrnn's LSTM cells have no projection of h: pass proj_size=0 (or put an "
                        "nn.Linear on the output), not 3.", lambda: lt.LSTM(2, 5, proj_size=3))


def test_an_empty_input_is_named_as_passed():
    m = lt.LSTM(2, 3, batch_first=True, dtype=F64)
    _raises(ValueError, "LSTM: x must hold at least one time step and one sequence, not shape (3, 0, 2).",
            lambda: m(torch.zeros(3, 0, 2, dtype=F64)))
    _raises(ValueError, "LSTM: x must hold at least one time step and one sequence, not shape (0, 4, 2).",
            lambda: m(torch.zeros(0, 4, 2, dtype=F64)))
    _raises(ValueError, "LSTM: x must hold at least one time step and one sequence, not shape (0, 2).",
            lambda: m(torch.zeros(0, 2, dtype=F64)))


def test_lengths_of_the_wrong_shape_are_named_by_their_own_shape():
    m = lt.LSTM(3, 2, dtype=F64)
    x = torch.zeros(4, 2, 3, dtype=F64)
    _raises(ValueError, "LSTM: lengths must hold one length per sequence (2), not shape (3,).",
            lambda: m(x, lengths=[4, 1, 2]))
    _raises(ValueError, "LSTM: lengths must hold one length per sequence (2), not shape (2, 1).",
            lambda: m(x, lengths=torch.tensor([[4], [1]])))


def test_a_float64_input_to_a_float32_module_is_refused_at_the_module_naming_the_weights():
    m = lt.RNN(3, 2, dtype=torch.float32)
    _raises(TypeError, "RNN: mixed dtypes (x torch.float64, hx[0] torch.float64, weights torch.float32): pass "
                       "every tensor in the module's dtype (x.to(m.weight_ih_l0.dtype)).",
            lambda: m(torch.zeros(4, 2, 3, dtype=F64)))
