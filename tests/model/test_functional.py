"""lnrnn.model.functional: the layer as pure functions, what every layer and the PyTorch and JAX bindings call.

It must give what RecurrentLayer gives (the same kernels, bit for bit), residuals of exactly the
layout it announces before running (on the CPU and the CUDA twin), and the gradient of the final
hidden state by central differences."""
import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model import functional as F
from lnrnn.model.layers import RecurrentLayer

CELLS = list(cells.CELLS)


def _layer(name, I, H, dtype=np.float64, seed=0):
    spec = cells.get(name)
    L = RecurrentLayer(spec.cell, spec.norm, I, H, dtype=dtype, seed=seed, max_steps=8)
    rng = np.random.default_rng(seed + 1)
    for v in L.params.values():  # move every parameter off its initial value (gains 1, biases 0)
        v += rng.uniform(-0.2, 0.2, v.shape).astype(dtype)
    return L


def _inputs(spec, T, B, I, H, dtype=np.float64, seed=2):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    state = tuple(rng.uniform(-0.5, 0.5, (B, H)).astype(dtype) for _ in range(spec.nstate))
    return x, state


@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("I", [2, 7])  # narrow (folded into the time loop) and wide input
@pytest.mark.parametrize("masked", [False, True])
def test_forward_and_backward_equal_the_layer(name, I, masked):
    spec = cells.get(name)
    T, B, H = 6, 5, 3
    L = _layer(name, I, H)
    x, state = _inputs(spec, T, B, I, H)
    lengths = np.array([6, 2, 0, 4, 6]) if masked else None
    bufs = {n: v.copy() for n, v in L.buffers.items()}
    y, final, res = F.layer_forward(name, x, state, dict(L.params), lengths=lengths, buffers=bufs)
    y_l, final_l = L.forward(x, state, lengths=lengths)
    np.testing.assert_array_equal(y, y_l)
    for a, b in zip(final, final_l):
        np.testing.assert_array_equal(a, b)
    for n in bufs:  # training updated the running statistics as the layer's
        np.testing.assert_array_equal(bufs[n], L.buffers[n])
    dy = np.random.default_rng(3).standard_normal(y.shape)
    dx, d0, grads = F.layer_backward(name, res, x, state, dict(L.params), y, dy, lengths=lengths)
    L.zero_grad()
    dx_l, d0_l = L.backward(dy)
    np.testing.assert_array_equal(dx, dx_l)
    for a, b in zip(d0, d0_l):
        np.testing.assert_array_equal(a, b)
    for n, g in grads.items():
        np.testing.assert_array_equal(g, L.grads[n])


@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("I", [2, 7])
def test_residuals_have_the_announced_layout(name, I):
    spec = cells.get(name)
    T, B, H = 5, 3, 4
    L = _layer(name, I, H, dtype=np.float32)
    x, state = _inputs(spec, T, B, I, H, dtype=np.float32)
    _, _, res = F.layer_forward(name, x, state, dict(L.params), buffers=dict(L.buffers))
    got = [(tuple(r.shape), np.dtype(r.dtype)) for r in res]
    assert got == [(tuple(s), np.dtype(d)) for s, d in F.residual_layout(name, T, B, I, H, np.float32)]


@pytest.mark.parametrize("name", CELLS)
def test_residual_layout_of_the_cuda_twin(name):
    from lnrnn import backend
    if not backend.cuda_usable()[0]:
        pytest.skip(backend.cuda_usable()[1])
    spec = cells.get(name)
    T, B, H, I = 3, 2, 3, 2
    L = _layer(name, I, H, dtype=np.float32)
    x, state = _inputs(spec, T, B, I, H, dtype=np.float32)
    _, _, res = F.layer_forward(name, x, state, dict(L.params), buffers=dict(L.buffers), device="cuda")
    got = [(tuple(r.shape), np.dtype(r.dtype)) for r in res]
    want = [(tuple(s), np.dtype(d)) for s, d in F.residual_layout(name, T, B, I, H, np.float32, device="cuda")]
    assert got == want


@pytest.mark.parametrize("name", CELLS)
def test_gradient_of_the_final_hidden_state_by_central_differences(name):
    """L = sum(w_y * y) + sum(w_h * h_n) over a padded batch with a row of length 0: dx, dh0 and one weight."""
    spec = cells.get(name)
    T, B, I, H = 4, 3, 3, 2
    L = _layer(name, I, H)
    x, state = _inputs(spec, T, B, I, H)
    lengths = np.array([4, 2, 0])
    rng = np.random.default_rng(5)
    wy, wh = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    mask = F.running_mask(lengths, T, np.float64)[:, :, None]
    p = dict(L.params)

    def loss(x, h0, Wx):
        st = (h0,) + tuple(state[1:])
        y, final, _ = F.layer_forward(name, x, st, {**p, "Wx": Wx}, lengths=lengths, training=False,
                                      buffers=dict(L.buffers), keep=False)
        return float(np.sum(wy * y * mask) + np.sum(wh * final[0]))

    y, final, res = F.layer_forward(name, x, state, p, lengths=lengths, training=False, buffers=dict(L.buffers))
    dx, d0, grads = F.layer_backward(name, res, x, state, p, y, wy, dfinal=(wh,), lengths=lengths, training=False)
    eps = 1e-6
    for arr, got, which in ((x, dx, 0), (state[0], d0[0], 1), (p["Wx"], grads["Wx"], 2)):
        for idx in list(np.ndindex(arr.shape))[::3]:
            args = [x.copy(), state[0].copy(), p["Wx"].copy()]
            args[which][idx] += eps
            up = loss(*args)
            args[which][idx] -= 2 * eps
            down = loss(*args)
            assert abs((up - down) / (2 * eps) - got[idx]) < 1e-6 * (1 + abs(got[idx])), (which, idx)


@pytest.mark.parametrize("name", ["lstm", "ln-lstm"])
@pytest.mark.parametrize("I", [2, 7])  # narrow (folded into the time loop) and wide input
def test_gradient_of_the_final_cell_state_by_central_differences(name, I):
    """L = sum(w_y * y) + sum(w_c * c_n) over rows of full length and one of length 0 (c_n is c0 there):
    dx, dh0, dc0 and every parameter, B = 5 so that the rows split into several chunks."""
    spec = cells.get(name)
    T, B, H = 3, 5, 2
    L = _layer(name, I, H)
    x, state = _inputs(spec, T, B, I, H)
    lengths = np.array([3, 3, 0, 3, 3])
    rng = np.random.default_rng(6)
    wy, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    mask = F.running_mask(lengths, T, np.float64)[:, :, None]
    p = {n: v.copy() for n, v in L.params.items()}

    def loss(x, state, p):
        y, final, _ = F.layer_forward(name, x, state, p, lengths=lengths, keep=False)
        return float(np.sum(wy * y * mask) + np.sum(wc * final[1]))

    y, final, res = F.layer_forward(name, x, state, p, lengths=lengths)
    dx, d0, grads = F.layer_backward(name, res, x, state, p, y, wy, dfinal=(None, wc), lengths=lengths)
    eps = 1e-6
    targets = [(x, dx), (state[0], d0[0]), (state[1], d0[1])] + [(p[n], grads[n]) for n in spec.param_names]
    for arr, got in targets:
        for idx in np.ndindex(arr.shape):
            keep = arr[idx]
            arr[idx] = keep + eps
            up = loss(x, state, p)
            arr[idx] = keep - eps
            down = loss(x, state, p)
            arr[idx] = keep
            assert abs((up - down) / (2 * eps) - got[idx]) < 1e-6 * (1 + abs(got[idx])), idx


@pytest.mark.parametrize("name", ["lstm", "ln-lstm"])
def test_the_cuda_twin_takes_the_final_cell_state_gradient_as_the_cpu_does(name):
    """dL/dc_n seeds the CUDA twin's carried dL/dc as the CPU kernel's (its per-step path)."""
    from lnrnn import backend
    if not backend.cuda_usable()[0]:
        pytest.skip(backend.cuda_usable()[1])
    spec = cells.get(name)
    T, B, I, H = 3, 3, 2, 2
    L = _layer(name, I, H)
    x, state = _inputs(spec, T, B, I, H)
    lengths = np.array([3, 0, 3])
    rng = np.random.default_rng(7)
    wy, wh, wc = rng.standard_normal((T, B, H)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    got = []
    for device in ("cpu", "cuda"):
        y, _, res = F.layer_forward(name, x, state, dict(L.params), lengths=lengths, device=device)
        dx, d0, grads = F.layer_backward(name, res, x, state, dict(L.params), y, wy, dfinal=(wh, wc),
                                         lengths=lengths, device=device)
        host = backend.kernels(device).to_host
        got.append([host(dx), *(host(d) for d in d0), *(host(grads[n]) for n in spec.param_names)])
    assert np.any(got[0][2])
    for a, b in zip(*got):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-12)


def test_a_gradient_of_the_final_cell_state_is_refused_where_the_kernels_take_none():
    """A row ending inside the sequence, and the BN-LSTM: one sentence, never a dropped gradient."""
    for name, lengths in (("lstm", np.array([3, 2])), ("bn-lstm", None)):
        spec = cells.get(name)
        L = _layer(name, 3, 2)
        x, state = _inputs(spec, 3, 2, 3, 2)
        bufs = F.grow_buffers(dict(L.buffers), 3)
        y, final, res = F.layer_forward(name, x, state, dict(L.params), lengths=lengths, buffers=bufs)
        with pytest.raises(NotImplementedError, match="c_n"):
            F.layer_backward(name, res, x, state, dict(L.params), y, None, dfinal=(None, np.ones((2, 2))),
                             lengths=lengths)
        # a zero one is no gradient at all
        F.layer_backward(name, res, x, state, dict(L.params), y, None, dfinal=(None, np.zeros((2, 2))),
                         lengths=lengths)


@pytest.mark.parametrize("name", CELLS)
def test_each_row_names_its_kernels_on_both_devices(name):
    """A row's kernels are the functions themselves: the CPU ones of lnrnn.kernels.<family>, the CUDA ones
    of its twin module <family>_cuda (same names), and every layer of the row calls them."""
    import importlib

    from lnrnn import backend
    spec = cells.get(name)
    family = ("bn_" if spec.norm == "bn" else "") + spec.cell
    ops = ("forward", "backward") + (() if spec.norm == "bn" else ("infer",))
    cpu = importlib.import_module(f"lnrnn.kernels.{family}")
    for op in ops:
        assert getattr(spec.kernels("cpu"), op) is getattr(cpu, f"{family}_{op}"), op
    assert RecurrentLayer(spec.cell, spec.norm, 2, 3).setup.kern is spec.kernels("cpu")
    if not backend.cuda_usable()[0]:
        pytest.skip(backend.cuda_usable()[1])
    twin = importlib.import_module(f"lnrnn.kernels.{family}_cuda")
    for op in ops:
        assert getattr(spec.kernels("cuda"), op) is getattr(twin, f"{family}_{op}"), op


def test_check_lengths_refuses_what_lies_outside_zero_to_t():
    assert F.check_lengths(None, 4, 2) is None
    assert F.check_lengths(np.array([4, 4]), 4, 2) is None, "every row all T steps: the unmasked path"
    assert F.check_lengths(np.array([0, 4]), 4, 2).tolist() == [0, 4]
    for bad in ([-1, 4], [2, 5]):
        with pytest.raises(ValueError, match=r"lengths must lie in \[0, 4\]"):
            F.check_lengths(np.array(bad), 4, 2)


DEVICE_CELLS = ["lstm", "ln-lstm", "rnn", "ln-rnn", "bn-lstm"]


def backward_on_both_devices(name, lengths, monkeypatch, T=4, I=2, H=3):
    """layer_backward on the CPU and on the device (skipped where no CUDA is usable), with dL/dy a device array
    there, ragged rows (lengths) and dL/dh_n: [dx, dstate0..., grads...] of each, as host arrays; and whether
    anything of dy's size (T,B,H) crossed to the host on the device."""
    from lnrnn import backend
    if not backend.cuda_usable()[0]:
        pytest.skip(backend.cuda_usable()[1])
    spec = cells.get(name)
    B = len(lengths)
    L = _layer(name, I, H)
    x, state = _inputs(spec, T, B, I, H)
    rng = np.random.default_rng(11)
    wy, wh = rng.standard_normal((T, B, H)), rng.standard_normal((B, H))
    bufs = F.grow_buffers(dict(L.buffers), T) if L.buffers else None
    got, seen = [], []
    for device in ("cpu", "cuda"):
        y, _, res = F.layer_forward(name, x, state, dict(L.params), lengths=lengths, device=device,
                                    buffers=None if bufs is None else {n: v.copy() for n, v in bufs.items()})
        k = backend.kernels(device)
        dy = k.to_device(wy)
        if device == "cuda":
            kind = type(dy)
            real = kind.copy_to_host
            monkeypatch.setattr(kind, "copy_to_host", lambda self, *a, **kw: seen.append(self.shape) or
                                real(self, *a, **kw))
        dx, d0, grads = F.layer_backward(name, res, x, state, dict(L.params), y, dy, dfinal=(wh,),
                                         lengths=lengths, device=device)
        monkeypatch.undo()
        got.append([k.to_host(dx), *(k.to_host(d) for d in d0), *(k.to_host(grads[n]) for n in spec.param_names)])
    return got, (T, B, H) in seen


@pytest.mark.parametrize("name", DEVICE_CELLS)
def test_dy_stays_on_the_device(name, monkeypatch):
    """layer_backward on the device with dL/dy a device array, ragged rows (one of length 0) and dL/dh_n: the
    same gradients as the CPU, and nothing of dy's size (T,B,H) crosses to the host (the mask and dL/dh_n are
    applied on the device)."""
    got, crossed = backward_on_both_devices(name, np.array([4, 0, 2]), monkeypatch)
    assert not crossed, "dL/dy came to the host"
    for a, b in zip(*got):
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-12)
    assert np.any(got[0][1][1] != 0), "the row of length 0 takes dL/dh_n into dh0"
