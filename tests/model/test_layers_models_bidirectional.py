"""Bidirectional stacks (``RecurrentStack(bidirectional=True)``, ``lnrnn train --bidirectional``).

A bidirectional layer is two unidirectional layers, one over the input and one over each row's valid
steps reversed, outputs side by side: the stack is compared with that construction, written here with
a reversal of its own (a loop over rows), exactly in float64 on ragged lengths. Every gradient is
judged by central differences for all six cells; the model's heads read [forward at the last step |
backward at step 0] or every step; the CLI trains, resumes and evaluates one."""
import importlib.util
import json
import os

import numpy as np
import pytest

from lnrnn.gradcheck import check_model
from lnrnn.model.cells import CELLS, lookup
from lnrnn.model.functional import reverse_valid
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from lnrnn.model.models import build_model
from lnrnn.training.checkpoint import load_checkpoint

from gradcheck_util import TOLERANCE, numeric_grad, rel_error, sample_idx
from test_cli import assert_clean_error, assert_ok, invoke

T, B, I, H = 5, 3, 2, 3
LENGTHS = np.array([5, 2, 4])                   # ragged: every row a different length, one full
CELL_NORMS = [(CELLS[c].cell, CELLS[c].norm) for c in CELLS]


def reversed_rows(a, lengths):
    """The obvious reversal: row b's first lengths[b] steps in reverse order, the rest as they were."""
    out = np.array(a, copy=True)
    for b, n in enumerate(lengths):
        out[:n, b] = a[:n, b][::-1]
    return out


def test_reverse_valid_reverses_each_rows_valid_steps_and_is_its_own_inverse():
    a = np.random.default_rng(0).standard_normal((T, B, 2))
    r = reverse_valid(a, LENGTHS)
    assert np.array_equal(r, reversed_rows(a, LENGTHS))
    assert np.array_equal(reverse_valid(r, LENGTHS), a)
    assert np.array_equal(reverse_valid(a, None), a[::-1])
    assert np.array_equal(reverse_valid(a, np.array([0, 1, 0])), a)   # nothing to reverse


def _copy_into(layer, params):
    for n, v in params.items():
        layer.params[n][...] = v


def _unidirectional(stack, j, I_in):
    """A lone RecurrentLayer with the parameters and BN statistics of stack.layers[j]."""
    src = stack.layers[j]
    layer = RecurrentLayer(src.cell, src.norm, I_in, src.H, dtype=np.float64, max_steps=T)
    _copy_into(layer, src.params)
    for n, v in src.buffers.items():
        layer.buffers[n] = v.copy()
    return layer


@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize("cell,norm", CELL_NORMS)
def test_bidirectional_stack_equals_two_directions_run_by_hand(cell, norm, skip):
    rng = np.random.default_rng(1)
    stack = RecurrentStack(cell, norm, I, H, num_layers=2, dtype=np.float64, seed=2, max_steps=T, skip=skip,
                           bidirectional=True)
    stack.flat[0].data[...] += 0.3 * rng.standard_normal(stack.flat[0].data.size)
    x = rng.standard_normal((T, B, I))
    state = [tuple(rng.standard_normal((B, H)) for _ in range(lookup(cell, norm).nstate)) for _ in range(4)]
    refs = [_unidirectional(stack, j, stack.layers[j].I) for j in range(4)]   # before the forward moves BN stats
    y, states = stack.forward(x, state, lengths=LENGTHS)

    inp, ys, want_states = x, [], []
    for k in range(2):
        fwd, bwd = refs[2 * k], refs[2 * k + 1]
        yf, sf = fwd.forward(inp, state[2 * k], lengths=LENGTHS)
        yb, sb = bwd.forward(reversed_rows(inp, LENGTHS), state[2 * k + 1], lengths=LENGTHS)
        h = np.concatenate([yf, reversed_rows(yb, LENGTHS)], axis=2)
        ys.append(h)
        want_states += [sf, sb]
        inp = np.concatenate([x, h], axis=2) if skip else h
    want = np.concatenate(ys, axis=2) if skip else ys[-1]
    assert y.shape == (T, B, (4 if skip else 2) * H) == want.shape
    run = np.arange(T)[:, None] < LENGTHS[None, :]
    assert np.array_equal(y[run], want[run])
    for got, ref in zip(states, want_states):
        for a, b in zip(got, ref):
            assert np.array_equal(a, b)
    for j in range(4):  # BN: each direction's statistics moved as the lone layer's did, by its own time
        for n, v in stack.layers[j].buffers.items():
            assert np.array_equal(v, refs[j].buffers[n]), (j, n)


def test_one_layer_equals_two_unidirectional_stacks_on_the_input_and_its_reversal():
    rng = np.random.default_rng(3)
    bi = RecurrentStack("lstm", "ln", I, H, dtype=np.float64, seed=4, bidirectional=True)
    bi.flat[0].data[...] += 0.3 * rng.standard_normal(bi.flat[0].data.size)
    fwd = RecurrentStack("lstm", "ln", I, H, dtype=np.float64, seed=5)
    bwd = RecurrentStack("lstm", "ln", I, H, dtype=np.float64, seed=6)
    _copy_into(fwd.layers[0], {n[len("l0."):]: v for n, v in bi.params.items() if n.startswith("l0.")})
    _copy_into(bwd.layers[0], {n[len("l0_reverse."):]: v for n, v in bi.params.items() if n.startswith("l0_reverse.")})
    x = rng.standard_normal((T, B, I))
    y, _ = bi.forward(x, lengths=LENGTHS)
    yf, _ = fwd.forward(x, lengths=LENGTHS)
    yb, _ = bwd.forward(reversed_rows(x, LENGTHS), lengths=LENGTHS)
    run = np.arange(T)[:, None] < LENGTHS[None, :]
    assert np.array_equal(y[run], np.concatenate([yf, reversed_rows(yb, LENGTHS)], axis=2)[run])


@pytest.mark.parametrize("cell,norm", CELL_NORMS)
def test_gradients_of_every_parameter_the_input_and_the_states(cell, norm):
    """Central differences of sum(R * y) over the valid steps, R random, 2 layers, ragged lengths; dy at
    padded steps is garbage, which the stack must ignore as the unidirectional one does."""
    rng = np.random.default_rng(7)
    stack = RecurrentStack(cell, norm, I, H, num_layers=2, dtype=np.float64, seed=8, max_steps=T,
                           bidirectional=True)
    stack.flat[0].data[...] += 0.3 * rng.standard_normal(stack.flat[0].data.size)
    x = rng.standard_normal((T, B, I))
    state = [tuple(0.5 * rng.standard_normal((B, H)) for _ in range(stack.layers[0].nstate)) for _ in range(4)]
    run = (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]
    R = rng.standard_normal((T, B, 2 * H))

    def loss():
        y, _ = stack.forward(x, state, lengths=LENGTHS)
        return float(np.sum(R * run * y))

    loss()
    stack.zero_grad()
    dx = stack.backward(np.where(run, R, 1e3 * rng.standard_normal(R.shape)))   # padded steps' dy: ignored
    grads = {n: g.copy() for n, g in stack.grads.items()}
    dstate0 = [tuple(np.array(a) for a in ds) for ds in stack.dstate0]
    checked = [("x", dx, x)] + [(n, grads[n], p) for n, p in stack.params.items()]
    checked += [(f"state{j}.{i}", dstate0[j][i], s) for j in range(4) for i, s in enumerate(state[j])]
    for name, analytic, arr in checked:
        idx = sample_idx(arr, 15, rng)
        num = numeric_grad(loss, arr, idx=idx)
        err = rel_error(analytic.reshape(-1)[idx], num)
        assert err < TOLERANCE, (name, err)
    assert np.all(dx[~run[:, :, 0]] == 0)                 # padded inputs feed nothing


@pytest.mark.parametrize("head,per_step", [("classifier", False), ("regression", True)])
def test_model_gradients_through_the_heads(head, per_step):
    """The last-step head reads each row's forward output at its last step and the backward output at
    step 0; a per-step head reads every step: the model's loss, checked against central differences."""
    for name, err in check_model("lstm", "ln", head=head, per_step=per_step, T=T, B=B, I=I, H=H, max_elems=12,
                                 lengths=LENGTHS, bidirectional=True):
        assert err < TOLERANCE, (name, err)


def test_last_step_head_reads_forward_at_the_last_step_and_backward_at_the_first(monkeypatch):
    """... in inference too, where a unidirectional model would run time chunks of one step here."""
    from lnrnn.model import models
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", B)         # infer_chunk_steps(B, T) = 1
    rng = np.random.default_rng(9)
    cfg = dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False}, bidirectional=True,
               skip=True)
    model = build_model(cfg, seed=1)
    x = rng.standard_normal((T, B, I))
    y, _ = model.stack.forward(x, lengths=LENGTHS, training=False)
    last = y[LENGTHS - 1, np.arange(B)]
    h = model.last_outputs(x, lengths=LENGTHS)
    for k in range(2):   # skip: [f0 | b0 | f1 | b1], H columns each
        f, b = slice(2 * k * H, (2 * k + 1) * H), slice((2 * k + 1) * H, (2 * k + 2) * H)
        assert np.array_equal(h[:, f], last[:, f])
        assert np.array_equal(h[:, b], y[0, :, b])
    targets = rng.integers(0, 3, B)
    sums, count = model.loss_sums(x, targets, LENGTHS)
    logits = h @ model.head.params["W"] + model.head.params["b"]
    want = -np.sum(logits[np.arange(B), targets] - np.log(np.exp(logits).sum(1)))
    assert count == B and sums["loss"] == pytest.approx(want, rel=1e-12)
    assert model.loss_and_grad(x, targets, LENGTHS)["loss"] == pytest.approx(want / B, rel=1e-12)


def test_what_a_bidirectional_stack_cannot_do_is_refused():
    stack = RecurrentStack("lstm", "ln", I, H, bidirectional=True)
    x = np.zeros((T, B, I), np.float32)
    with pytest.raises(ValueError, match="whole sequences"):
        stack.forward(x, t0=2)
    with pytest.raises(ValueError, match="no step"):
        stack.step(x[0])
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float32",
               forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False}, bidirectional=True)
    with pytest.raises(ValueError, match="without truncated BPTT"):
        build_model(cfg).loss_and_grad(x, np.zeros(B, np.int64), tbptt=2)
    with pytest.raises(ValueError, match="cannot be bidirectional"):
        build_model({**cfg, "window": 2, "alphabet_size": 4, "skip": True})


# ---- the CLI ----

BI = ["--cell", "lstm", "--hidden", 4, "--batch-size", 16, "--bidirectional", "-q"]


def test_train_resume_and_eval_a_bidirectional_run(tmp_path):
    out = tmp_path / "run"
    assert_ok(invoke("train", *BI, "--max-steps", 2, "--out", out))
    meta, arrays = load_checkpoint(str(out))
    assert meta["model"]["bidirectional"] is True and meta["step"] == 2
    assert json.load(open(out / "config.json"))["bidirectional"] is True
    assert arrays["param/rnn.l0_reverse.Wx"].shape == arrays["param/rnn.l0.Wx"].shape
    assert arrays["param/head.W"].shape[0] == 2 * 4
    assert_ok(invoke("train", *BI, "--max-steps", 3, "--out", out, "--resume"))
    assert load_checkpoint(str(out))[0]["step"] == 3
    r = invoke("eval", "--checkpoint", out, "--json")
    assert_ok(r)
    assert {"loss", "acc"} <= set(json.loads(r.stdout))
    # lnrnn.predict reads what the head reads: forward at each row's last step, backward at step 0
    import lnrnn
    run = lnrnn.load_run(str(out))
    x = (np.random.default_rng(11).random((3, 64, 1)) > 0.5).astype(np.float32)     # (N,T,I) of digits-binary
    lengths = np.array([64, 30, 5])
    h = run.model.last_outputs(np.ascontiguousarray(x.transpose(1, 0, 2)), lengths=lengths)
    logits = run.model.head.linear(h).astype(np.float64)
    probs = np.exp(logits - logits.max(1, keepdims=True))
    assert np.allclose(lnrnn.predict(run, x, lengths=lengths).probabilities, probs / probs.sum(1, keepdims=True))


@pytest.mark.parametrize("extra,words", [(["--tbptt", 3], "--tbptt 3"),
                                         (["--task", "strokes-hershey", "--window", 2], "--window 2"),
                                         (["--task", "strokes-synthetic", "--layers", 1], "mixture density head")])
def test_train_refuses_bidirectional_with_tbptt_window_and_next_point_prediction(tmp_path, extra, words):
    r = invoke("train", *BI, *extra, "--max-steps", 1, "--out", tmp_path / "run")
    assert_clean_error(r, words)
    assert "bidirectional" in r.stderr


@pytest.mark.skipif(importlib.util.find_spec("HersheyFonts") is None and os.environ.get("LNRNN_REQUIRE_EXTRAS") != "1",
                    reason="hershey-fonts is not installed (pip install 'lnrnn[hershey]')")
def test_a_bidirectional_reader_trains_resumes_and_evaluates(tmp_path):
    from test_reading import READER
    out = tmp_path / "reader"
    at = READER.index("--max-steps")
    args = READER[:at] + READER[at + 2:] + ["--bidirectional"]
    assert_ok(invoke("train", *args, "--max-steps", 2, "--out", out))
    meta, arrays = load_checkpoint(str(out))
    assert meta["model"]["bidirectional"] is True and meta["model"]["head"]["kind"] == "ctc"
    assert "param/rnn.l0_reverse.Wh" in arrays
    assert_ok(invoke("train", *args, "--max-steps", 3, "--out", out, "--resume"))
    r = invoke("eval", "--checkpoint", out, "--json")
    assert_ok(r)
    assert {"loss", "cer"} <= set(json.loads(r.stdout))


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "bn")])
def test_cuda_twins_give_the_cpu_stacks_values(cell, norm, monkeypatch):
    """device='cuda' (the simulator in CI): the same layer path with the CUDA twins, the reversal and the joins on
    the device (arrays_cuda.reverse_valid, join_columns)."""
    from lnrnn import backend
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn import config
    from lnrnn.kernels.cuda import gemm_cuda
    from test_cuda_kernels import simulator_race_free
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)     # several blocks, as test_cuda_kernels runs them
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 8)
    monkeypatch.setattr(gemm_cuda, "TILE", 4)
    rng = np.random.default_rng(10)
    x = rng.standard_normal((3, 2, I))
    dy = rng.standard_normal((3, 2, 2 * H))
    lengths = np.array([3, 2])
    out = {}
    with simulator_race_free(monkeypatch):
        for device in ("cpu", "cuda"):
            s = RecurrentStack(cell, norm, I, H, num_layers=2, dtype=np.float64, seed=3, max_steps=3, device=device,
                               bidirectional=True)
            y, states = s.forward(x, lengths=lengths)
            dx = s.backward(dy)
            out[device] = (y, dx, s.grads, s.buffers)
    (y0, dx0, g0, b0), (y1, dx1, g1, b1) = out["cpu"], out["cuda"]
    assert np.allclose(y0, y1, atol=1e-12) and np.allclose(dx0, dx1, atol=1e-12)
    for k in g0:
        assert np.allclose(g0[k], g1[k], atol=1e-11), k
    for k in b0:
        assert np.allclose(b0[k], b1[k], atol=1e-12), k
