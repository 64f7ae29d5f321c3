"""The optimizers' CUDA twin (lnrnn/kernels/optim_cuda.py) against the CPU twin (lnrnn/kernels/optim.py) and
the rules written out here from their definitions, over four updates of a flat buffer, each gradient first
clipped by each twin's clip_grad_norm (norms 20, 0.2, 20, 3 against a limit of 1: clipped and kept): SGD with
momentum 0.9 and with momentum 0 (p -= lr g; no velocity read or written, none needed), RMSProp plain and with
momentum (plain and centred), Adam with beta2 0.99 (bias corrections spelled out); clipping with no limit (None
or 0) measures the norm and leaves g alone.

P = 13 parameters, blocks of 4 threads, the grid capped at 2 blocks (every thread strides), float64 to 1e-12."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import optim, optim_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
# small_blocks: the autouse fixture (blocks of 4 threads, at most 2 blocks); the same sizes and rates
from test_values75_optim_cuda import (  # noqa: E402,F401
    ALPHA, BETA1, EPS, LR, MAX_NORM, MOMENTUM, P, TOL, small_blocks)
from test_values75_optim_cuda import gradients as gradients_of_norms  # noqa: E402

BETA2 = 0.99


def gradients():
    return gradients_of_norms(seed=159, norms=(20.0, 0.2, 20.0, 3.0))


def clipped(g):
    """Both twins' clipping of g: (device g, host g), the norms checked equal to sqrt(sum g^2)."""
    dg, dn = to_device(g.copy()), to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(dg, MAX_NORM, dn)
    hg, hn = g.copy(), np.zeros(1)
    optim.clip_grad_norm(hg, MAX_NORM, hn)
    want = np.sqrt(np.sum(g * g))
    assert to_host(dn)[0] == pytest.approx(want, rel=TOL) and hn[0] == pytest.approx(want, rel=TOL)
    np.testing.assert_allclose(to_host(dg), hg, rtol=TOL, atol=0)
    return dg, hg


def check(dev, host):
    for name in host:
        np.testing.assert_allclose(to_host(dev[name]), host[name], rtol=TOL, atol=TOL, err_msg=name)


def start(*names, seed=1):
    rng = np.random.default_rng(seed)
    host = {n: (rng.standard_normal(P) if n == "p" else np.zeros(P)) for n in names}
    return host, {n: to_device(a.copy()) for n, a in host.items()}


@pytest.mark.parametrize("momentum", [0.9, 0.0])
def test_sgd_four_updates(momentum):
    host, dev = start("p", "v")
    p, v = host["p"].copy(), np.zeros(P)
    for g in gradients():
        dg, hg = clipped(g)
        optim_cuda.sgd_update(dev["p"], dev["v"], dg, LR, momentum)
        optim.sgd_update(host["p"], host["v"], hg, LR, momentum)
        if momentum:
            v = momentum * v + hg
            p = p - LR * v
        else:
            p = p - LR * hg
        check(dev, host)
        np.testing.assert_allclose(host["p"], p, rtol=TOL, atol=TOL)
        np.testing.assert_allclose(to_host(dev["v"]), v, rtol=0, atol=TOL)  # momentum 0: v stays 0


def test_sgd_without_momentum_needs_no_velocity():
    host, dev = start("p")
    for g in gradients():
        dg, hg = clipped(g)
        optim_cuda.sgd_update(dev["p"], None, dg, LR, 0.0)
        optim.sgd_update(host["p"], None, hg, LR, 0.0)
        check(dev, host)


def test_rmsprop_four_updates():
    host, dev = start("p", "sq")
    p, n = host["p"].copy(), np.zeros(P)
    for g in gradients():
        dg, hg = clipped(g)
        optim_cuda.rmsprop_update(dev["p"], dev["sq"], dg, LR, ALPHA, EPS)
        optim.rmsprop_update(host["p"], host["sq"], hg, LR, ALPHA, EPS)
        n = ALPHA * n + (1 - ALPHA) * hg ** 2
        p = p - LR * hg / (np.sqrt(n) + EPS)
        check(dev, host)
        np.testing.assert_allclose(host["p"], p, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("centred", [False, True])
def test_rmsprop_momentum_four_updates(centred):
    host, dev = start("p", "sq", "avg", "v")
    p, n, m, v = host["p"].copy(), np.zeros(P), np.zeros(P), np.zeros(P)
    for g in gradients():
        dg, hg = clipped(g)
        optim_cuda.rmsprop_momentum_update(dev["p"], dev["sq"], dev["avg"] if centred else None, dev["v"], dg,
                                           LR, ALPHA, MOMENTUM, EPS)
        optim.rmsprop_momentum_update(host["p"], host["sq"], host["avg"] if centred else None, host["v"], hg,
                                      LR, ALPHA, MOMENTUM, EPS)
        n = ALPHA * n + (1 - ALPHA) * hg ** 2
        m = ALPHA * m + (1 - ALPHA) * hg if centred else m
        v = MOMENTUM * v - LR * hg / np.sqrt(n - m ** 2 + EPS)
        p = p + v
        check(dev, host)
        np.testing.assert_allclose(host["p"], p, rtol=TOL, atol=TOL)
        np.testing.assert_allclose(host["v"], v, rtol=TOL, atol=TOL)


def test_adam_four_updates():
    host, dev = start("p", "m", "v")
    p, m, v = host["p"].copy(), np.zeros(P), np.zeros(P)
    for k, g in enumerate(gradients(), start=1):
        dg, hg = clipped(g)
        optim_cuda.adam_update(dev["p"], dev["m"], dev["v"], dg, LR, BETA1, BETA2, EPS, k)
        optim.adam_update(host["p"], host["m"], host["v"], hg, LR, BETA1, BETA2, EPS, k)
        m = BETA1 * m + (1 - BETA1) * hg
        v = BETA2 * v + (1 - BETA2) * hg ** 2
        p = p - LR * (m / (1 - BETA1 ** k)) / (np.sqrt(v / (1 - BETA2 ** k)) + EPS)
        check(dev, host)
        np.testing.assert_allclose(host["v"], v, rtol=TOL, atol=TOL)
        np.testing.assert_allclose(host["p"], p, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("max_norm", [None, 0.0])
def test_clip_without_a_limit_only_measures(max_norm):
    g = gradients()[0]
    dg, dn = to_device(g.copy()), to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(dg, max_norm, dn)
    assert to_host(dn)[0] == pytest.approx(np.sqrt(np.sum(g * g)), rel=TOL)
    np.testing.assert_array_equal(to_host(dg), g)
