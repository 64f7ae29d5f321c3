"""lnrnn.diagnostics: dL/dh_t per step (checked by central differences through the kernels, an
independent implementation) and the per-step statistics (checked against direct NumPy formulas)."""
import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.model.models import SequenceClassifier

CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]


def _problem(cell, norm, layers=1, T=9, B=5, I=2, H=3, seed=1):
    model = SequenceClassifier(cell, norm, input_size=I, hidden_size=H, num_layers=layers, num_classes=4,
                               dtype="float64", seed=seed)
    for layer in model.stack.layers:  # larger weights: a non-trivial, cell-specific recurrence
        layer.params["Wh"] *= 1.7
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, 4, B)
    return model, x, y


def _loss_from(model, x, y, t, v, eps):
    """Mean loss with the top layer's h_t moved by eps*v (B,H): the stack runs steps 0..t, the state is
    perturbed, and steps t+1..T-1 continue from it (kernels, training mode as in an update)."""
    T = x.shape[0]
    state = model.stack.zero_state(x.shape[1])
    _, state, _ = model._run(np.ascontiguousarray(x[:t + 1]), state, True, None, 0)
    state = [tuple(np.array(a) for a in s) for s in state]
    h = state[-1][0] + eps * v
    state[-1] = (h,) + tuple(state[-1][1:])
    yy, _, _ = model._run(np.ascontiguousarray(x[t + 1:]), state, True, None, t + 1)
    sel, valid, _ = model._select(yy, T, None, t + 1)
    sums, count, _ = model.head.forward(sel, y, valid)
    return sums["loss"] / count


@pytest.mark.parametrize("cell,norm", CELLS)
def test_grad_h_equals_central_differences(cell, norm):
    model, x, y = _problem(cell, norm)
    d = per_step(model, x, y)
    dh = d["dh"][-1]                                                   # (T,B,H)
    rng = np.random.default_rng(5)
    for t in (0, 3, 7):                                                # before the last step: no direct path
        v = rng.standard_normal(dh.shape[1:])
        eps = 1e-5
        fd = (_loss_from(model, x, y, t, v, eps) - _loss_from(model, x, y, t, v, -eps)) / (2 * eps)
        assert np.sum(dh[t] * v) == pytest.approx(fd, rel=1e-6, abs=1e-10)
    # the last step: dL/dh_{T-1} is the head's derivative alone (central differences through the head)
    T = x.shape[0]
    yT = model._run(np.ascontiguousarray(x), model.stack.zero_state(x.shape[1]), True, None, 0)[0][T - 1]
    v = rng.standard_normal(yT.shape)
    ok = np.ones(x.shape[1], bool)
    f = [model.head.forward(yT + e * v, y, ok)[0]["loss"] / x.shape[1] for e in (1e-5, -1e-5)]
    assert np.sum(dh[T - 1] * v) == pytest.approx((f[0] - f[1]) / 2e-5, rel=1e-6)
    np.testing.assert_allclose(d["grad_h"][-1], np.linalg.norm(dh, axis=2).mean(1), rtol=1e-12)
    # the gradient really changes over the steps (a constant or shifted record would not)
    assert np.ptp(d["grad_h"][-1]) > 1e-6


def test_top_layer_of_a_stack_and_skip():
    for skip in (False, True):
        model, x, y = _problem("lstm", "ln", layers=2)
        model.stack.skip = skip
        if skip:  # rebuild with the skip stack's wider inputs
            from lnrnn.model.models import build_model
            cfg = dict(model.stack.config, skip=True, head={"kind": "classifier", "outputs": 4, "per_step": False})
            model = build_model(cfg, seed=1)
        d = per_step(model, x, y)
        assert d["grad_h"].shape == (2, x.shape[0])
        v = np.random.default_rng(2).standard_normal(d["dh"][1].shape[1:])
        fd = (_loss_from(model, x, y, 4, v, 1e-5) - _loss_from(model, x, y, 4, v, -1e-5)) / 2e-5
        assert np.sum(d["dh"][1][4] * v) == pytest.approx(fd, rel=1e-6)
        assert np.all(d["grad_h"][0] > 0)                              # the lower layer is reached too


def test_statistics_match_direct_formulas_and_leave_the_model_alone():
    from lnrnn import reference as ref
    model, x, y = _problem("lstm", "none")
    before = {k: np.array(v) for k, v in model.head.grads.items()}
    p = model.stack.layers[0].params
    G = p["Wh"].shape[1]
    H = 3
    _, _, _, cache = ref.lstm_forward(x, np.zeros((5, H)), np.zeros((5, H)), p["Wx"], p["Wh"], p["b"], np.ones(G),
                                      np.zeros(G), np.ones(G), np.zeros(G), np.ones(H), np.zeros(H), "none")
    a = np.stack([x[t] @ p["Wx"] + cache[t]["h"] @ p["Wh"] + p["b"] for t in range(x.shape[0])])   # (T,B,G)
    d = per_step(model, x, y)
    np.testing.assert_allclose(d["pre_std"][0], a.reshape(a.shape[0], -1).std(1), rtol=1e-12)
    np.testing.assert_allclose(d["pre_sat"][0], (np.abs(a) > 3).reshape(a.shape[0], -1).mean(1))
    for k, v in model.head.grads.items():
        np.testing.assert_array_equal(v, before[k])


def test_lengths_count_only_running_rows():
    model, x, y = _problem("lstm", "bn")
    lengths = np.array([9, 4, 9, 6, 2])
    d = per_step(model, x, y, lengths=lengths)
    dh = d["dh"][0]
    run = np.arange(9)[:, None] < lengths[None, :]
    assert np.all(dh[~run] == 0)                                       # padded steps carry no gradient
    want = np.array([np.linalg.norm(dh[t][run[t]], axis=1).mean() for t in range(9)])
    np.testing.assert_allclose(d["grad_h"][0], want, rtol=1e-12)
