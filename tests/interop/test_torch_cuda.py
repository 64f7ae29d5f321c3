"""lnrnn.torch on CUDA tensors: the binding's device path (``_Cuda`` in lnrnn/interop/torch.py) on a real GPU.

The judges: the same module on the CPU (parameters copied; outputs, every gradient and BN's running
statistics to 1e-10 in float64), ``torch.autograd.gradcheck`` on CUDA float64 tensors,
``torch.library.opcheck`` of the layer ops with CUDA inputs, ``torch.compile(fullgraph=True)`` against
eager in float32, the kernels' own pointers (CUDA tensors reach them as views, no host copy in the
forward), and the default stream's results for a call on a busy side stream.

Shapes: T steps, B batch, I input, H hidden; lengths (B,) on the CPU, as the modules pass them.
These tests need torch with CUDA and a GPU: run them with NUMBA_ENABLE_CUDASIM=0 (tests/conftest.py
selects Numba's simulator otherwise, which cannot read torch's CUDA tensors); elsewhere they skip."""
import copy
import os

import pytest

torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from test_torch import spy_on_kernels  # noqa: E402

if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" or not torch.cuda.is_available():
    pytestmark = pytest.mark.skip(reason="needs torch with CUDA on a GPU and NUMBA_ENABLE_CUDASIM=0")

DEV = "cuda"
F64, F32 = torch.float64, torch.float32
NORMS = [None, "ln", "bn"]
CELL_OF = {None: "lstm", "ln": "ln-lstm", "bn": "bn-lstm"}
T, B, I, H = 5, 3, 4, 7
RAGGED = [5, 2, 4]            # (B,) each row's length: right padding
TOL64 = dict(rtol=1e-10, atol=1e-10)   # CPU kernels against their CUDA twins: summation order differs


def _module(norm, I=I, H=H, layers=1, bidirectional=False, dtype=F64, seed=0):
    """A CPU LSTM with every parameter moved off its initial value (gains 1, biases 0)."""
    torch.manual_seed(seed)
    m = lt.LSTM(I, H, num_layers=layers, norm=norm, bidirectional=bidirectional, dtype=dtype)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, generator=g, dtype=dtype) * 0.6 - 0.3)
    return m


def _inputs(m, T=T, B=B, dtype=F64, seed=5):
    """x (T,B,I), h0, c0 (L*D,B,H) and loss weights for out, h_n, c_n, on the CPU."""
    g = torch.Generator().manual_seed(seed)
    L = m.num_layers * m.directions
    x = torch.randn(T, B, m.input_size, dtype=dtype, generator=g)
    hx = [torch.rand(L, B, m.hidden_size, dtype=dtype, generator=g) - 0.5 for _ in range(2)]
    w = [torch.randn(T, B, m.output_size, dtype=dtype, generator=g),
         *(torch.randn(L, B, m.hidden_size, dtype=dtype, generator=g) for _ in range(2))]
    return x, hx, w


def _step(m, x, hx, w, lengths=None, call=None):
    """Forward (``call``, m itself by default: a compiled m) and backward of a loss on out, h_n (and c_n
    where it takes a gradient: full rows, no BN) -> {name: tensor}: the outputs, the gradients of x, h0,
    c0 and every parameter of m, m's buffers."""
    xs = x.clone().requires_grad_()
    hs = [s.clone().requires_grad_() for s in hx]
    out, (h_n, c_n) = (m if call is None else call)(xs, tuple(hs), lengths=lengths)
    loss = (out * w[0]).sum() + (h_n * w[1]).sum()
    if lengths is None and m.norm != "bn":
        loss = loss + (c_n * w[2]).sum()
    loss.backward()
    got = {"out": out, "h_n": h_n, "c_n": c_n, "dx": xs.grad, "dh0": hs[0].grad, "dc0": hs[1].grad}
    got.update({f"d {n}": p.grad for n, p in m.named_parameters()})
    got.update({f"buffer {n}": b for n, b in m.named_buffers()})
    return got


def _assert_all_close(got, want, **tol):
    assert set(got) == set(want)
    for k, w in want.items():
        assert w is not None, f"{k}: no gradient on the CPU"
        assert got[k] is not None, f"{k}: no gradient on CUDA"
        assert got[k].device.type == DEV, f"{k} is on {got[k].device}"
        torch.testing.assert_close(got[k].cpu(), w, **tol, msg=lambda s, k=k: f"{k}: {s}")


# ---- (a) CUDA equals the CPU ----

LAYOUTS = {"1-layer": (1, False, None), "1-layer-ragged": (1, False, RAGGED), "2-layers-ragged": (2, False, RAGGED),
           "2-layers-bi-ragged": (2, True, RAGGED), "2-layers-bi": (2, True, None)}   # (layers, bidirectional, lengths)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("norm", NORMS)
def test_outputs_gradients_and_statistics_on_cuda_equal_the_cpus(norm, layout):
    """float64, training mode: out, h_n, c_n, dx, dh0, dc0, every parameter's gradient and BN's updated
    running statistics of the module on CUDA tensors equal those of the same module on the CPU."""
    layers, bidirectional, lengths = LAYOUTS[layout]
    cpu = _module(norm, layers=layers, bidirectional=bidirectional)
    gpu = copy.deepcopy(cpu).to(DEV)
    x, hx, w = _inputs(cpu)
    lengths = None if lengths is None else torch.tensor(lengths)
    want = _step(cpu, x, hx, w, lengths)
    got = _step(gpu, x.to(DEV), [s.to(DEV) for s in hx], [v.to(DEV) for v in w], lengths)
    _assert_all_close(got, want, **TOL64)


@pytest.mark.parametrize("norm", NORMS)
def test_evaluation_mode_and_no_grad_on_cuda_equal_the_cpus(norm):
    """eval() under torch.no_grad (the kernels' inference path; BN's population statistics, fewer rows
    than steps so the last row serves the last steps) on CUDA equals the CPU."""
    cpu = _module(norm, layers=2)
    g = torch.Generator().manual_seed(3)
    for name, b in list(cpu.named_buffers()):
        v = torch.rand((T - 2, b.shape[1]), generator=g, dtype=b.dtype)
        setattr(cpu, name, v - 0.5 if "mean" in name else v + 0.5)
    cpu.eval()
    gpu = copy.deepcopy(cpu).to(DEV)
    x, hx, _ = _inputs(cpu)
    with torch.no_grad():
        want = cpu(x, tuple(hx), lengths=torch.tensor(RAGGED))
        got = gpu(x.to(DEV), tuple(s.to(DEV) for s in hx), lengths=torch.tensor(RAGGED))
    _assert_all_close({"out": got[0], "h_n": got[1][0], "c_n": got[1][1]},
                      {"out": want[0], "h_n": want[1][0], "c_n": want[1][1]}, **TOL64)


def test_float32_on_cuda_is_close_to_the_cpu():
    """float32 (the dtype users train in): outputs and gradients within float32 rounding of the CPU's."""
    cpu = _module("ln", layers=2, dtype=F32)
    gpu = copy.deepcopy(cpu).to(DEV)
    x, hx, w = _inputs(cpu, dtype=F32)
    want = _step(cpu, x, hx, w, torch.tensor(RAGGED))
    got = _step(gpu, x.to(DEV), [s.to(DEV) for s in hx], [v.to(DEV) for v in w], torch.tensor(RAGGED))
    _assert_all_close(got, want, rtol=1e-4, atol=1e-5)


def test_one_step_cells_on_cuda_equal_the_cpus():
    """LSTMCell (norm None and 'ln'): h', c' and every gradient of a loss on both."""
    for norm in (None, "ln"):
        torch.manual_seed(0)
        cpu = lt.LSTMCell(I, H, norm=norm, dtype=F64)
        gpu = copy.deepcopy(cpu).to(DEV)
        g = torch.Generator().manual_seed(8)
        x, h, c, wh, wc = (torch.randn(s, dtype=F64, generator=g) for s in ((B, I), (B, H), (B, H), (B, H), (B, H)))
        results = []
        for m, dev in ((cpu, "cpu"), (gpu, DEV)):
            xs, hs, cs = (t.detach().clone().to(dev).requires_grad_() for t in (x, h, c))
            h1, c1 = m(xs, (hs, cs))
            ((h1 * wh.to(dev)).sum() + (c1 * wc.to(dev)).sum()).backward()
            results.append({"h'": h1, "c'": c1, "dx": xs.grad, "dh": hs.grad, "dc": cs.grad,
                            **{f"d {n}": p.grad for n, p in m.named_parameters()}})
        _assert_all_close(results[1], results[0], **TOL64)


# ---- (b) finite differences on CUDA ----

@pytest.mark.parametrize("ragged", [False, True])
@pytest.mark.parametrize("norm", NORMS)
def test_gradcheck_on_cuda(norm, ragged):
    """dx, dh0, dc0 and every parameter's gradient against float64 finite differences, all on CUDA;
    out and h_n in the loss (c_n too where it takes a gradient: full rows, no BN)."""
    T, B, I, H = 3, (3 if ragged else 2), 3, 4
    m = _module(norm, I, H).to(DEV)
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]
    g = torch.Generator().manual_seed(5)
    x = torch.randn(T, B, I, dtype=F64, generator=g).to(DEV).requires_grad_()
    states = [(torch.rand(1, B, H, dtype=F64, generator=g) - 0.5).to(DEV).requires_grad_() for _ in range(2)]
    lengths = torch.tensor([3, 1, 3]) if ragged else None   # BN: two rows still run at every step
    with_c = not ragged and norm != "bn"

    def f(x, h0, c0, *ps):
        out, (h_n, c_n) = torch.func.functional_call(m, dict(zip(names, ps)), (x, (h0, c0)), {"lengths": lengths})
        assert out.device.type == h_n.device.type == DEV
        return (out, h_n, c_n) if with_c else (out, h_n)

    assert torch.autograd.gradcheck(f, (x, *states, *params))


# ---- (c) the ops under opcheck, CUDA inputs ----

@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("norm", NORMS)
def test_opcheck_of_the_layer_ops_on_cuda(norm, masked):
    """torch.library.opcheck of lnrnn::layer_forward and lnrnn::layer_backward (schema, fake tensors,
    autograd registration, AOT dispatch) with CUDA tensors, as test_torch.py's on the CPU."""
    name = CELL_OF[norm]
    spec = cells.get(name)
    T, B, I, H = 3, 3, 2, 3
    m = _module(norm, I, H).to(DEV)
    m._grow_buffers(0, T)  # training reads and updates BN statistics of every step
    g = torch.Generator().manual_seed(6)
    x = torch.randn(T, B, I, dtype=F64, generator=g).to(DEV).requires_grad_()
    state = [torch.randn(B, H, dtype=F64, generator=g).to(DEV).requires_grad_() for _ in range(spec.nstate)]
    params = [p.detach().clone().requires_grad_() for p in m.layer_params(0)]
    lengths = torch.tensor([3, 1, 0]) if masked else None
    args = (x, state, params, m.layer_buffers(0), lengths, name, True, True)
    torch.library.opcheck(lt.layer_forward, args)
    y, final, res, new_bufs = lt.layer_forward(*args)
    assert all(t.device.type == DEV for t in (y, *final, *res, *new_bufs))
    dy, dh = torch.randn_like(y), torch.randn_like(final[0])
    bargs = ([r.detach() for r in res], x.detach(), [s.detach() for s in state], [p.detach() for p in params],
             y.detach(), dy, [dh], lengths, name, True)
    torch.library.opcheck(lt.layer_backward, bargs)


# ---- (d) torch.compile on CUDA ----

def _compile_backend():
    """Inductor where Triton is installed (its CUDA code needs it), else AOT autograd without codegen."""
    try:
        from torch.utils._triton import has_triton
        return "inductor" if has_triton() else "aot_eager"
    except ImportError:
        return "aot_eager"


@pytest.mark.parametrize("norm,layers", [("ln", 2), ("bn", 1)])
def test_compiled_fullgraph_on_cuda_equals_eager(norm, layers):
    """float32 on CUDA, ragged rows: out, h_n, c_n, every gradient and BN's statistics of the compiled
    module equal eager's (the same kernels run; the compiler only moves the glue)."""
    eager = _module(norm, layers=layers, dtype=F32).to(DEV)
    twin = copy.deepcopy(eager)
    torch._dynamo.reset()  # a fresh compile cache (dynamo's recompile limit is per process)
    compiled = torch.compile(twin, fullgraph=True, backend=_compile_backend())
    x, hx, w = _inputs(eager, dtype=F32)
    x, hx, w = x.to(DEV), [s.to(DEV) for s in hx], [v.to(DEV) for v in w]
    lengths = torch.tensor(RAGGED)
    want = _step(eager, x, hx, w, lengths)

    got = _step(twin, x, hx, w, lengths, call=compiled)
    for k, v in want.items():
        assert got[k].device.type == DEV, k
        torch.testing.assert_close(got[k], v, rtol=1e-5, atol=1e-6, msg=lambda s, k=k: f"{k}: {s}")


# ---- (e) no host copy ----

def test_cuda_tensors_reach_the_kernels_as_views_and_the_forward_copies_nothing_to_the_host(monkeypatch):
    """The LN-LSTM kernels read x where torch keeps it and write y where out lives (and dx where x.grad
    lives); the forward neither calls .cpu()/.numpy()/.item()/.tolist() on a CUDA tensor nor copies a
    device array to the host; the backward calls none of those torch methods either (it keeps dL/dy on the
    device: tests/model/test_functional.py::test_dy_stays_on_the_device)."""
    from numba.cuda.cudadrv import devicearray

    m = _module("ln").to(DEV)
    x = torch.randn(T, B, I, dtype=F64, device=DEV, requires_grad=True)
    k = cells.lstm_cuda()   # the CUDA LSTM kernels of the registry's rows
    copies = []
    to_host = devicearray.DeviceNDArray.copy_to_host

    def counted(self, *a, **kw):
        copies.append(tuple(self.shape))
        return to_host(self, *a, **kw)

    def refused(name):
        real = getattr(torch.Tensor, name)

        def method(self, *a, **kw):
            if self.is_cuda:
                raise AssertionError(f"lnrnn.torch called Tensor.{name}() on a CUDA tensor")
            return real(self, *a, **kw)
        return method

    seen = spy_on_kernels(monkeypatch, k, lambda a: a.__cuda_array_interface__["data"][0])
    monkeypatch.setattr(devicearray.DeviceNDArray, "copy_to_host", counted)
    for name in ("cpu", "numpy", "item", "tolist"):
        monkeypatch.setattr(torch.Tensor, name, refused(name))
    out, (h_n, c_n) = m(x)
    assert copies == [], f"the forward copied device arrays of shapes {copies} to the host"
    (out.sum() + h_n.sum() + c_n.sum()).backward()
    monkeypatch.undo()
    for t in (out, h_n, c_n, x.grad, *(p.grad for p in m.parameters())):
        assert t.device == x.device
    assert seen["x"] == x.data_ptr() and seen["y"] == out.data_ptr()
    assert seen["x_back"] == x.data_ptr() and seen["dx"] == x.grad.data_ptr()


# ---- (f) streams ----

def test_a_call_on_a_busy_side_stream_gives_the_default_streams_results():
    """Forward and backward under ``torch.cuda.stream(s)``, where s first sleeps and then writes the input:
    lnrnn's kernels (on Numba's default stream) must wait for s before they read x, and s must wait for
    them before it reads the results; the results equal the default stream's."""
    m = _module("ln", layers=2, bidirectional=True).to(DEV)
    x, hx, w = _inputs(m)
    x, hx, w = x.to(DEV), [s.to(DEV) for s in hx], [v.to(DEV) for v in w]
    lengths = torch.tensor(RAGGED)
    want = {k: v.clone() for k, v in _step(m, x, hx, w, lengths).items()}
    m.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    main, side = torch.cuda.current_stream(), torch.cuda.Stream()
    side.wait_stream(main)
    with torch.cuda.stream(side):
        sleep = getattr(torch.cuda, "_sleep", None)
        if sleep is not None:
            sleep(100_000_000)        # about 50 ms of GPU clock cycles: the side stream is busy
        xs = x * 1.0                  # written on the side stream after the sleep
        got = _step(m, xs, hx, w, lengths)
        got = {k: v * 1.0 for k, v in got.items()}   # read on the side stream right after the call
        assert torch.cuda.current_stream() == side
    main.wait_stream(side)
    torch.cuda.synchronize()
    assert torch.cuda.current_stream() == main
    for k, v in want.items():
        torch.testing.assert_close(got[k], v, rtol=0, atol=1e-12, msg=lambda s, k=k: f"{k}: {s}")
