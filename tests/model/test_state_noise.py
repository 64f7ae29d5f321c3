"""Initial-state noise (Cooijmans et al. 2016 sec. 5.1): what it fixes, how it is drawn,
when it is on by default, and that a run with it still resumes exactly."""
import numpy as np
import pytest

from lnrnn.model.models import build_model
from lnrnn.training.optim import clip_grad_norm, make_optimizer


def blank_prefixed(rng, T=120, blank=100, B=16):
    """Sequences whose first ``blank`` steps are 0 in every example, like the top rows of MNIST."""
    x = np.zeros((T, B, 1), np.float32)
    x[blank:] = rng.random((T - blank, B, 1), dtype=np.float32)
    return x, rng.integers(0, 10, B)


def model(cell, norm, noise, seed=0):
    return build_model(dict(cell=cell, norm=norm, input_size=1, hidden_size=32, num_layers=1, dtype="float32",
                            forget_bias=1.0, head={"kind": "classifier", "outputs": 10, "per_step": False},
                            state_noise=noise), seed=seed)


def grad_norms(m, updates=4):
    """Gradient norms of a few Adam updates on blank-prefixed sequences."""
    rng = np.random.default_rng(1)
    opt = make_optimizer("adam", 1e-3)
    norms = []
    for k in range(updates):
        x, y = blank_prefixed(rng)
        loss = m.loss_and_grad(x, y, noise_key=k)["loss"]
        norms.append(clip_grad_norm(m.flat[1].data, 1.0))
        assert np.isfinite(loss)
        opt.step(m.flat[0].data, m.flat[1].data)
    return norms


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_trains_on_blank_prefixed_sequences_with_noise_and_not_without(cell):
    """Without noise every row of the batch is identical for 100 steps: zero batch variance, and each
    step's backward multiplies by gamma/sqrt(eps), so float32 overflows (or lands near it). With noise:
    finite and far from it (vanilla recurrences may still grow gradients by 1e3 over 120 steps: the
    clip is for that)."""
    with_noise = grad_norms(model(cell, "bn", 0.1))
    assert all(np.isfinite(n) and n < 1e6 for n in with_noise), with_noise
    without = grad_norms(model(cell, "bn", 0.0), updates=1)
    assert not (np.isfinite(without[0]) and without[0] < 1e6), without


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_ln_cells_need_no_noise_on_blank_prefixed_sequences(cell):
    norms = grad_norms(model(cell, "ln", 0.0))
    assert all(np.isfinite(n) and n < 1e6 for n in norms), norms


def test_noise_is_per_example_fresh_per_key_and_reproducible():
    m = build_model(dict(cell="lstm", norm="bn", input_size=1, hidden_size=8, num_layers=2, dtype="float64",
                         forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False},
                         state_noise=0.1), seed=3)
    a, b, c = m.noise_state(2000, (1, 5)), m.noise_state(2000, (1, 5)), m.noise_state(2000, (1, 6))
    assert len(a) == 2 and all(len(s) == 2 for s in a)                   # (h0, c0) for each layer
    for sa, sb, sc in zip(a, b, c):
        for u, v, w in zip(sa, sb, sc):
            np.testing.assert_array_equal(u, v)
            assert not np.allclose(u, w)
            assert u.shape == (2000, 8) and abs(u.std() - 0.1) < 0.005 and abs(u.mean()) < 0.005
            assert not np.allclose(u[0], u[1])                           # per example
    assert not np.allclose(a[0][0], a[0][1]) and not np.allclose(a[0][0], a[1][0])
    assert m.noise_state(4, (1, 0))[0][0].dtype == np.float64
    zero = build_model({**m.config, "state_noise": 0.0})
    assert zero.noise_state(4, (1, 0)) is None
    # evaluation draws per batch index: the same result every time, and not the zero-state result
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((6, 10, 1)), rng.integers(0, 3, 10)
    e1, e2 = m.loss_sums(x, y, noise_key=0), m.loss_sums(x, y, noise_key=0)
    assert e1 == e2 and m.loss_sums(x, y, noise_key=1) != e1
    # training draws per update: fresh noise for every key, the same for the same key
    l0, l0b, l1 = (m.loss_and_grad(x, y, noise_key=k)["loss"] for k in (0, 0, 1))
    assert l0 == l0b and l1 != l0


def _noise(task, **cfg):
    """state_noise of a run planned with TrainConfig fields ``cfg`` on the built ``task`` (it reads the plan's
    cell row and --state-noise, and the task's constant prefix)."""
    from lnrnn.training.plan import resolve, state_noise
    from lnrnn.training.runconfig import TrainConfig
    return state_noise(resolve(TrainConfig(**cfg)), task)


def test_defaults_follow_cell_and_task():
    from lnrnn.data.tasks import load_task
    digits = load_task({"task": "digits"})
    adding = load_task({"task": "adding", "steps": 10})
    assert _noise(digits, cell="bn-lstm") == 0.1
    assert _noise(digits, cell="bn-rnn") == 0.1
    assert _noise(digits, cell="ln-lstm") == 0.0
    assert _noise(adding, cell="bn-lstm") == 0.0
    assert _noise(digits, cell="bn-lstm", state_noise=0.0) == 0.0
    assert _noise(adding, cell="lstm", state_noise=0.3) == 0.3


def test_pmnist_is_off_and_mnist_on(tmp_path):
    """The MNIST family begins with blank rows (noise on for BN); permuted MNIST does not (off)."""
    from test_data import fake_mnist

    from lnrnn.data.tasks import load_task
    fake_mnist(tmp_path)
    for task, want in (("mnist", 0.1), ("mnist-rows", 0.1), ("pmnist", 0.0)):
        t = load_task({"task": task, "data_dir": str(tmp_path)})
        assert _noise(t, cell="bn-lstm") == want, task


def test_noisy_run_resumes_exactly(tmp_path):
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    base = dict(task="digits", split="96/32", hidden=6, batch_size=16, epochs=2, cell="bn-lstm", seed=2)
    ref = train(TrainConfig(**base, out=str(tmp_path / "ref")), quiet=True, log=lambda m: None)
    assert ref.model.state_noise == 0.1
    out = str(tmp_path / "part")
    train(TrainConfig(**base, out=out, max_steps=5), quiet=True, log=lambda m: None)
    res = train(TrainConfig(**base, out=out), resume=True, quiet=True, log=lambda m: None)
    np.testing.assert_array_equal(res.model.flat[0].data, ref.model.flat[0].data)
    assert [r["val_loss"] for r in res.history] == [r["val_loss"] for r in ref.history]
    # and the noise is used: the same run without it ends elsewhere
    off = train(TrainConfig(**base, out=str(tmp_path / "off"), state_noise=0.0), quiet=True, log=lambda m: None)
    assert not np.array_equal(off.model.flat[0].data, ref.model.flat[0].data)


def test_bn_overflow_message_names_the_cause_and_the_option(tmp_path, monkeypatch):
    """Blank-prefixed sequences (100 zero steps, like MNIST's top rows), a BN-LSTM with --state-noise 0:
    the run stops at the first update, and its one line says why and which option helps; with the
    noise the same run trains."""
    from lnrnn.data import tasks
    from lnrnn.errors import TrainingDiverged
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    rng = np.random.default_rng(0)
    x = np.zeros((64, 120, 1), np.float32)
    x[:, 100:] = rng.random((64, 20, 1))
    y = rng.integers(0, 10, 64)
    task = tasks.TaskData({"task": "digits"}, "blank-prefixed", x[:48], y[:48], x[48:], y[48:], num_classes=10,
                          extra={"constant_prefix": True})
    monkeypatch.setattr("lnrnn.training.setup.load_task", lambda spec: task)
    base = dict(task="digits", cell="bn-lstm", hidden=32, batch_size=16, epochs=1)
    with pytest.raises(TrainingDiverged) as e:
        train(TrainConfig(**base, state_noise=0.0, out=str(tmp_path / "off")), quiet=True, log=lambda m: None)
    assert "update 1" in str(e.value) and "--state-noise 0.1" in str(e.value) and "zero batch variance" in str(e.value)
    ok = train(TrainConfig(**base, out=str(tmp_path / "on")), quiet=True, log=lambda m: None)
    assert ok.model.state_noise == 0.1 and np.isfinite(ok.history[-1]["val_loss"])
