"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes, several options on together, against
independent computations: a BatchNorm stack with initial-state noise and a last-step head over ragged rows
with T != B (every gradient against central differences of the loss, the noise against the generator seeded
(seed, 1, key) drawn here); a per-step classifier from an old-style config (objective, num_classes,
per_step) on a two-layer skip stack (its head scores every running step, counted here; gradients against
central differences); scored_count of whole rows; parameter and buffer names and shapes from the cells'
definitions (Wx (I,H), Wh (H,H), b, gx, gh (H,) per layer; rm/rv x, h (max_steps,H)), the parameter count
summed from them, and a checkpoint's round trip through an .npz file, array by array; evaluate over two
batches with state noise against the tanh RNN and cross-entropy written in test_values129_models from the
noise seeded (seed, 2, i) for batch i; the refusals' sentences word for word."""
import re

import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config
from gradcheck_util import numeric_grad
from test_values129_models import C, H, I, ce_sums, make

BASE = dict(input_size=I, hidden_size=H, dtype="float64", forget_bias=1.0)


def shuffle_params(model, seed):
    rng = np.random.default_rng(seed)
    for v in model.params.values():
        v[...] = rng.normal(0.0, 0.6, v.shape)


def check_grads(model, loss):
    loss()
    grads = {k: np.array(v) for k, v in model.grads.items()}
    assert set(grads) == set(model.params)
    for k, p in model.params.items():
        np.testing.assert_allclose(grads[k], numeric_grad(loss, p), rtol=1e-6, atol=1e-9, err_msg=k)


def test_batchnorm_with_state_noise_and_a_last_step_head_over_ragged_rows():
    T, B, s, seed, key = 4, 3, 0.5, 3, 7                  # T != B: the last step's rows are the batch's
    model = build_model(dict(BASE, cell="rnn", norm="bn", num_layers=1, state_noise=s,
                             head=head_config("ce", C)), seed=seed, max_steps=T)
    shuffle_params(model, 1)
    rng = np.random.default_rng(2)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, B), np.array([4, 1, 3])
    noise = model.noise_state(B, (1, key))
    np.testing.assert_allclose(noise[0][0], s * np.random.default_rng([seed, 1, key]).standard_normal((B, H)),
                               rtol=0, atol=1e-12)
    m = model.loss_and_grad(x, labels, lengths, noise_key=key)
    assert model.last_count == B
    np.testing.assert_allclose(model.loss_and_grad(x, labels, lengths, state=noise)["loss"], m["loss"], rtol=1e-12)
    check_grads(model, lambda: model.loss_and_grad(x, labels, lengths, noise_key=key)["loss"])


def test_per_step_classifier_from_an_old_config_on_a_skip_stack():
    T, B = 3, 2
    cfg = dict(BASE, cell="rnn", norm="none", num_layers=2, skip=True, objective="ce", num_classes=C,
               per_step=True)
    model = build_model(cfg, seed=4)
    assert model.head.steps == "all" and model.config["skip"] is True
    assert model.config["head"] == {"kind": "classifier", "outputs": C, "per_step": True}
    shuffle_params(model, 5)
    rng = np.random.default_rng(6)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, (B, T)), np.array([3, 2])
    model.loss_and_grad(x, labels, lengths)
    assert model.last_count == 3 + 2                      # every running step
    assert model.scored_count(labels, None, T, B) == T * B
    assert model.scored_count(labels, lengths, T, B) == 5
    check_grads(model, lambda: model.loss_and_grad(x, labels, lengths)["loss"])


def test_names_shapes_count_and_a_checkpoint_round_trip(tmp_path):
    T, B, L = 3, 2, 2
    model = build_model(dict(BASE, cell="rnn", norm="bn", num_layers=L, state_noise=0.0,
                             head=head_config("ce", C)), seed=1, max_steps=T)
    want_p = {"head.W": (H, C), "head.b": (C,)}
    want_b = {}
    for k in range(L):
        want_p.update({f"rnn.l{k}.Wx": (I if k == 0 else H, H), f"rnn.l{k}.Wh": (H, H), f"rnn.l{k}.b": (H,),
                       f"rnn.l{k}.gx": (H,), f"rnn.l{k}.gh": (H,)})
        want_b.update({f"rnn.l{k}.{n}": (T, H) for n in ("rmx", "rvx", "rmh", "rvh")})
    assert {k: v.shape for k, v in model.params.items()} == want_p
    assert {k: v.shape for k, v in model.buffers.items()} == want_b
    assert model.num_params() == sum(int(np.prod(s)) for s in want_p.values())
    rng = np.random.default_rng(8)
    x, labels = rng.standard_normal((T, B, I)), rng.integers(0, C, B)
    shuffle_params(model, 9)
    model.loss_and_grad(x, labels)                        # the running statistics move away from 0 and 1
    saved = {**{k: np.array(v) for k, v in model.params.items()}, **{k: np.array(v) for k, v in model.buffers.items()}}
    assert not np.allclose(saved["rnn.l1.rmh"], 0)
    np.savez(tmp_path / "ckpt.npz", **saved)
    other = build_model(dict(model.config), seed=2, max_steps=T)
    with np.load(tmp_path / "ckpt.npz") as f:
        other.load_arrays({k: f[k] for k in f.files})
    for k, v in saved.items():
        got = other.params[k] if k in other.params else other.buffers[k]
        np.testing.assert_array_equal(got, v, err_msg=k)
    s1, c1 = model.loss_sums(x, labels)
    s2, c2 = other.loss_sums(x, labels)
    assert c1 == c2 == B and s1 == s2


def test_evaluate_draws_batch_i_noise_for_key_i():
    s, seed = 0.8, 6
    model = make(state_noise=s, seed=seed)
    p = {k: np.array(v) for k, v in model.params.items()}
    rng = np.random.default_rng(10)
    batches = [(rng.standard_normal((3, B, I)), rng.integers(0, C, B), np.array([3, 1, 2][:B])) for B in (3, 2)]
    loss, count = 0.0, 0
    for i, (x, labels, lengths) in enumerate(batches):
        h0 = s * np.random.default_rng([seed, 2, i]).standard_normal((x.shape[1], H))
        li, _, n = ce_sums(p, x, labels, lengths, h0)
        loss, count = loss + li, count + n
    np.testing.assert_allclose(model.evaluate(batches)["loss"], loss / count, rtol=1e-10)


def test_refusals_word_for_word():
    model = make()
    assert model.device_refusal() == "the stack runs on the CPU"
    with pytest.raises(ValueError, match="^" + re.escape("objective must be 'ce' or 'mse', not 'hinge'") + "$"):
        head_config("hinge")
    with pytest.raises(ValueError, match="^" + re.escape("this model reads no text (it was not trained with an "
                                                         "attention window)") + "$"):
        model.loss_sums(np.zeros((2, 1, I)), np.zeros(1, np.int64), text=(np.zeros((1, 1)), np.ones(1)))
    with pytest.raises(ValueError, match="^" + re.escape("unknown model settings ['colour']") + "$"):
        build_model(dict(model.config, colour=1))
