"""Models (stack + head): the heads' loss gradients by central differences (float64), then end to end.

``ToyStack`` is a throw-away plain-NumPy tanh RNN with the RecurrentStack interface; it lets the head,
the optimizers and the train loop be tested independently of the compiled kernels. Other test files
import it from here.
"""
import importlib.util

import numpy as np
import pytest

from lnrnn.model.models import SequenceClassifier, batches_of, log_softmax

HAVE_LAYERS = importlib.util.find_spec("lnrnn.model.layers") is not None


class ToyStack:
    """h_t = tanh(x_t Wx + h_{t-1} Wh + b), one layer. x (T,B,I) -> y (T,B,H)."""

    def __init__(self, cell="rnn", norm="none", input_size=1, hidden_size=4, num_layers=1,
                 dtype=np.float64, seed=0, forget_bias=1.0):
        rng = np.random.default_rng(seed)
        I, H = input_size, hidden_size
        self.params = {"l0.Wx": rng.normal(0, 1 / np.sqrt(I), (I, H)).astype(dtype),
                       "l0.Wh": rng.normal(0, 1 / np.sqrt(H), (H, H)).astype(dtype),
                       "l0.b": np.zeros(H, dtype)}
        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.buffers = {}
        self.config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=num_layers,
                           dtype=np.dtype(dtype).name, forget_bias=forget_bias)

    def zero_grad(self):
        for g in self.grads.values():
            g[...] = 0

    def forward(self, x, state=None, training=True, lengths=None, t0=0, keep=True):
        assert lengths is None and state is None, "the toy stack runs whole batches from zero state only"
        p = self.params
        T, B, _ = x.shape
        h = np.zeros((T + 1, B, p["l0.Wh"].shape[0]), x.dtype)  # h[0] = initial state
        for t in range(T):
            h[t + 1] = np.tanh(x[t] @ p["l0.Wx"] + h[t] @ p["l0.Wh"] + p["l0.b"])
        self._saved = (x, h)
        return h[1:].copy(), h[-1].copy()

    def backward(self, dy):
        x, h = self._saved
        p, g = self.params, self.grads
        dx = np.zeros_like(x)
        dh = np.zeros_like(h[0])
        for t in reversed(range(len(x))):
            da = (dy[t] + dh) * (1 - h[t + 1] ** 2)
            g["l0.Wx"] += x[t].T @ da
            g["l0.Wh"] += h[t].T @ da
            g["l0.b"] += da.sum(0)
            dx[t] = da @ p["l0.Wx"].T
            dh = da @ p["l0.Wh"].T
        return dx


def toy_classifier(**kw):
    cfg = dict(cell="rnn", norm="none", input_size=3, hidden_size=5, num_layers=1, num_classes=4,
               dtype="float64", seed=1)
    cfg.update(kw)
    stack = ToyStack(cfg["cell"], cfg["norm"], cfg["input_size"], cfg["hidden_size"], cfg["num_layers"],
                     np.dtype(cfg["dtype"]).type, cfg["seed"])
    return SequenceClassifier(stack=stack, **cfg)


def numeric_grads(model, x, labels, eps=1e-6):
    """Central differences of the mean loss with respect to every parameter."""
    out = {}
    for name, p in model.params.items():
        g = np.zeros_like(p)
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for i in range(flat.size):
            old = flat[i]
            flat[i] = old + eps
            lp = model.loss_and_grad(x, labels)["loss"]
            flat[i] = old - eps
            lm = model.loss_and_grad(x, labels)["loss"]
            flat[i] = old
            gflat[i] = (lp - lm) / (2 * eps)
        out[name] = g
    return out


def assert_grads_match(model, x, labels, tol=1e-6):
    model.loss_and_grad(x, labels)
    analytic = {k: v.copy() for k, v in model.grads.items()}
    numeric = numeric_grads(model, x, labels)
    for k in analytic:
        err = np.abs(analytic[k] - numeric[k]).max() / max(np.abs(numeric[k]).max(), 1e-12)
        assert err <= tol, f"{k}: relative error {err:.2e}"


@pytest.mark.parametrize("objective,per_step", [("ce", False), ("ce", True), ("mse", False)])
def test_head_and_loss_gradients(objective, per_step):
    rng = np.random.default_rng(0)
    T, B = 4, 6
    C = 1 if objective == "mse" else 4
    model = toy_classifier(num_classes=C, objective=objective, per_step=per_step)
    x = rng.normal(size=(T, B, 3))
    if objective == "mse":
        labels = rng.random(B)
    elif per_step:
        labels = rng.integers(0, C, (B, T))
        labels[:, :2] = -1  # unscored steps, as in the copy task
    else:
        labels = rng.integers(0, C, B)
    assert_grads_match(model, x, labels)


def test_cross_entropy_value_and_stability():
    model = toy_classifier()
    logits = np.array([[1000.0, 0.0, -1000.0, 0.0]])
    lp = log_softmax(logits)
    assert np.isfinite(lp).all() and abs(lp[0, 0]) < 1e-12
    # uniform head -> loss log C, whatever the labels
    model.head.params["W"][...] = 0
    loss = model.loss_and_grad(np.ones((3, 2, 3)), np.array([0, 3]))["loss"]
    assert abs(loss - np.log(4)) < 1e-12


def test_merged_dicts_share_memory():
    model = toy_classifier()
    model.params["rnn.l0.b"][...] = 7.0
    assert (model.stack.params["l0.b"] == 7.0).all()
    assert set(model.params) == set(model.grads)
    assert all(k.startswith(("rnn.", "head.")) for k in model.params)


def test_evaluate_matches_single_batch():
    rng = np.random.default_rng(3)
    model = toy_classifier()
    x, labels = rng.normal(size=(5, 10, 3)), rng.integers(0, 4, 10)
    whole = model.evaluate(batches_of(x, labels, batch_size=10))
    parts = model.evaluate(batches_of(x, labels, batch_size=3))
    assert whole.keys() == parts.keys() == {"loss", "acc"}
    assert np.allclose(list(whole.values()), list(parts.values()))


@pytest.mark.skipif(not HAVE_LAYERS, reason="lnrnn.model.layers has not landed yet")
@pytest.mark.parametrize("cell,norm", [("lstm", "none"), ("lstm", "ln"), ("rnn", "ln"), ("lstm", "bn")])
def test_classifier_end_to_end_gradients(cell, norm):
    rng = np.random.default_rng(1)
    model = SequenceClassifier(cell=cell, norm=norm, input_size=2, hidden_size=3, num_layers=2,
                               num_classes=3, dtype="float64", seed=2)
    for p in model.params.values():  # nonzero biases and gains away from 1 exercise every path
        p += rng.normal(0, 0.1, p.shape)
    x, labels = rng.normal(size=(4, 3, 2)), rng.integers(0, 3, 3)
    assert_grads_match(model, x, labels)


def test_unscored_steps_add_nothing_to_the_per_step_loss():
    """Per-step labels of -1 are not scored: the loss is the mean over the scored steps alone,
    computed here independently from the stack's outputs."""
    rng = np.random.default_rng(4)
    T, B, C = 5, 3, 4
    model = toy_classifier(num_classes=C, per_step=True)
    x = rng.normal(size=(T, B, 3))
    labels = rng.integers(0, C, (B, T))
    labels[:, :2] = -1
    labels[1, 4] = -1
    means = model.loss_and_grad(x, labels)
    y, _ = model.stack.forward(x)
    logp = log_softmax(y @ model.head.params["W"] + model.head.params["b"])      # (T,B,C)
    scored = [(t, b) for b in range(B) for t in range(T) if labels[b, t] >= 0]
    want = -np.mean([logp[t, b, labels[b, t]] for t, b in scored])
    assert model.last_count == len(scored) == 8
    assert means["loss"] == pytest.approx(want, rel=1e-12)
