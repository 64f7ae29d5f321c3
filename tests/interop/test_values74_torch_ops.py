"""lnrnn.torch's custom ops against what the real ops return and against definitions: the fake (meta)
implementations of ``lnrnn::layer_forward`` and ``lnrnn::layer_backward`` run under a FakeTensorMode give
every output the shape, dtype and list length of the real op's outputs (T != B != I != H, float32 and float64,
BN in train() and eval(), with and without residuals, ragged rows); the autograd wiring: the residuals come back
not requiring grad, c_n requires grad only where the kernels take its seed (plain and LN LSTM, no lengths), and
``torch.autograd.gradcheck`` (float64 central differences) of one op call on tiny shapes for every gradient
(x, h0, c0, every parameter) of a loss on y and h_n; the aliasing guard: ``_span`` against NumPy's
``byte_bounds`` of views (sliced, strided, reversed, transposed) and ``_fresh`` copying exactly the outputs
whose bytes overlap an input's (``np.shares_memory``)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop import torch as lti  # noqa: E402
from lnrnn.model import cells  # noqa: E402

F32, F64 = torch.float32, torch.float64
T, B, I, H = 3, 2, 4, 5  # all different: a swapped axis shows


def _layer(name, dtype, seed=0):
    """One layer of cell ``name``: (its module, params in the ops' order, BN buffers grown to T rows)."""
    spec = cells.get(name)
    torch.manual_seed(seed)
    cls = lt.LSTM if spec.cell == "lstm" else lt.RNN
    m = cls(I, H, norm=None if spec.norm == "none" else spec.norm, dtype=dtype)
    m._grow_buffers(0, T)
    return m, [p.detach().clone() for p in m.layer_params(0)], [b.clone() for b in m.layer_buffers(0)]


def _inputs(spec, dtype, seed=1):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, B, I, dtype=F64, generator=g).to(dtype)
    state = [(0.5 * torch.randn(B, H, dtype=F64, generator=g)).to(dtype) for _ in range(spec.nstate)]
    return x, state


def _fake_call(op, args):
    """op(*args) with every tensor (also inside lists) replaced by a fake one: only the fake implementation runs."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    mode = FakeTensorMode()

    def conv(a):
        if isinstance(a, torch.Tensor):
            return mode.from_tensor(a)
        if isinstance(a, list):
            return [conv(t) for t in a]
        return a
    fargs = [conv(a) for a in args]
    with mode:
        return op(*fargs)


def _layout(out):
    """Nested outputs -> [(list length) | (shape, dtype)] in order."""
    flat = []
    for o in out:
        if isinstance(o, (list, tuple)):
            flat.append(("list", len(o)))
            flat += [(tuple(t.shape), t.dtype) for t in o]
        else:
            flat.append((tuple(o.shape), o.dtype))
    return flat


FORWARD_CASES = [  # (cell, dtype, training, keep, ragged)
    ("ln-lstm", F32, True, True, False),
    ("lstm", F64, True, True, True),
    ("rnn", F32, False, True, True),
    ("ln-rnn", F64, True, False, False),
    ("bn-rnn", F32, False, True, False),   # eval() with residuals: no new statistics
    ("bn-lstm", F64, True, True, True),    # train(): the new statistics come back
    ("bn-lstm", F32, False, False, False),
]


@pytest.mark.parametrize("name,dtype,training,keep,ragged", FORWARD_CASES)
def test_the_forward_fake_gives_the_real_ops_shapes_and_dtypes(name, dtype, training, keep, ragged):
    spec = cells.get(name)
    _, params, bufs = _layer(name, dtype)
    x, state = _inputs(spec, dtype)
    lengths = torch.tensor([3, 1]) if ragged else None
    args = (x, state, params, bufs, lengths, name, training, keep)
    real = lti.layer_forward(*args)
    fake = _fake_call(lti.layer_forward, args)
    assert _layout(fake) == _layout(real)
    # and the documented part by definition: y (T,B,H), each final state (B,H), in x's dtype
    y, final, res, new_bufs = real
    assert (tuple(y.shape), y.dtype) == ((T, B, H), dtype)
    assert [(tuple(f.shape), f.dtype) for f in final] == [((B, H), dtype)] * spec.nstate
    assert (len(res) > 0) == keep
    assert len(new_bufs) == (len(bufs) if training else 0)


@pytest.mark.parametrize("name,dtype", [("ln-lstm", F32), ("bn-rnn", F64), ("rnn", F32)])
def test_the_backward_fake_gives_the_real_ops_shapes_and_dtypes(name, dtype):
    """dx is x's shape (T,B,I), each dstate (B,H), each parameter gradient its parameter's shape."""
    spec = cells.get(name)
    _, params, bufs = _layer(name, dtype)
    x, state = _inputs(spec, dtype)
    y, final, res, _ = lti.layer_forward(x, state, params, bufs, None, name, True, True)
    dy = torch.ones_like(y)
    args = (list(res), x, state, params, y, dy, [torch.ones_like(final[0])], None, name, True)
    real = lti.layer_backward(*args)
    fake = _fake_call(lti.layer_backward, args)
    assert _layout(fake) == _layout(real)
    dx, dstate, dparams = real
    assert tuple(dx.shape) == tuple(x.shape) and dx.dtype == dtype
    assert [tuple(d.shape) for d in dstate] == [tuple(s.shape) for s in state]
    assert [tuple(d.shape) for d in dparams] == [tuple(p.shape) for p in params]


@pytest.mark.parametrize("name,ragged,c_grad", [("ln-lstm", False, True), ("ln-lstm", True, False),
                                                ("lstm", False, True), ("bn-lstm", False, False),
                                                ("ln-rnn", True, None)])
def test_which_outputs_require_grad(name, ragged, c_grad):
    """y and h_n carry gradients; the residuals never; c_n only where the kernels take its seed."""
    spec = cells.get(name)
    _, params, bufs = _layer(name, F64)
    x, state = _inputs(spec, F64)
    x.requires_grad_()
    params = [p.requires_grad_() for p in params]
    lengths = torch.tensor([2, 3]) if ragged else None
    y, final, res, _ = lti.layer_forward(x, state, params, bufs, lengths, name, True, True)
    assert y.requires_grad and final[0].requires_grad
    assert res and not any(r.requires_grad for r in res)
    if c_grad is not None:
        assert final[1].requires_grad == c_grad


@pytest.mark.parametrize("name,ragged", [("ln-lstm", True), ("lstm", False), ("ln-rnn", True)])
def test_gradcheck_of_one_op_call(name, ragged):
    """Every gradient the op's backward returns (x, h0, c0, every parameter, in the op's argument order)
    against float64 central differences of a loss on y and h_n (c_n too where it is differentiable)."""
    spec = cells.get(name)
    Tg, Bg, Ig, Hg = 3, 2, 2, 2
    torch.manual_seed(0)
    cls = lt.LSTM if spec.cell == "lstm" else lt.RNN
    m = cls(Ig, Hg, norm=None if spec.norm == "none" else spec.norm, dtype=F64)
    g = torch.Generator().manual_seed(2)
    params = [(p.detach() + 0.3 * torch.randn(p.shape, dtype=F64, generator=g)).requires_grad_()
              for p in m.layer_params(0)]
    x = torch.randn(Tg, Bg, Ig, dtype=F64, generator=g).requires_grad_()
    state = [(0.5 * torch.randn(Bg, Hg, dtype=F64, generator=g)).requires_grad_() for _ in range(spec.nstate)]
    lengths = torch.tensor([3, 1]) if ragged else None
    n = spec.nstate
    # padded steps take no gradient (the modules zero them): the loss reads y at each row's own steps
    mask = torch.ones(Tg, Bg, 1, dtype=F64) if lengths is None else (torch.arange(Tg)[:, None] < lengths)[..., None]

    def f(x, *rest):
        y, final, _, _ = lti.layer_forward(x, list(rest[:n]), list(rest[n:]), [], lengths, name, True, True)
        return (y * mask, *(fi for fi in final if fi.requires_grad))

    assert torch.autograd.gradcheck(f, (x, *state, *params))


# ---- the aliasing guard ----

def _byte_bounds(a):
    try:
        from numpy.lib.array_utils import byte_bounds
    except ImportError:  # NumPy < 2
        byte_bounds = np.byte_bounds
    return byte_bounds(a)


@pytest.mark.parametrize("view", ["whole", "columns", "reversed", "strided_reversed", "transposed", "one",
                                  "row_then_column"])
def test_span_is_numpys_byte_bounds(view):
    base = np.arange(60, dtype=np.float64).reshape(5, 12)
    a = {"whole": base, "columns": base[:, 3:7], "reversed": base[::-1], "strided_reversed": base[1:4, ::-3],
         "transposed": base.T, "one": base[2:3, 5:6], "row_then_column": base[1:3][:, 2:11:2]}[view]
    assert tuple(lti._span(a)) == tuple(_byte_bounds(a))


def test_fresh_copies_exactly_the_outputs_that_overlap_an_input():
    base = np.arange(16, dtype=np.float32)
    inp = base[4:8]                                          # an input: bytes [4, 8) of base
    out = lti._fresh([base[0:6], base[8:12], base[12:16:2]], [lti._span(inp)])
    runs_into, after, strided = out
    assert not np.shares_memory(runs_into, base)             # starts before the input and runs into it: copied
    np.testing.assert_array_equal(runs_into, np.arange(6, dtype=np.float32))
    assert np.shares_memory(after, base) and after.base is not None   # right after it: no copy
    assert np.shares_memory(strided, base)                   # beyond both: no copy
    # an output overlapping an earlier output is copied as well
    first, second = lti._fresh([base[0:4], base[2:6]], [])
    assert np.shares_memory(first, base) and not np.shares_memory(second, base)
    np.testing.assert_array_equal(second, base[2:6])
