"""Graves's synthesis network as a model (``lnrnn.model.window``): the whole model's hand-written gradients
against central differences (every LSTM cell, masks on points and on characters, truncated BPTT), the
text's padding adds nothing, the trainer writes a text task with the window by default, and the
commands refuse windows a run cannot have with one line."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.gradcheck import numeric_grad, rel_error, sample_idx
from lnrnn.model.models import build_model

HEAD = {"kind": "mdn", "components": 2, "per_step": True, "scale": [1.0, 1.0]}
T, B, C, U = 6, 3, 5, 4


def synthesis_model(norm, dtype="float64", layers=2, K=2, seed=1, window_norm=None):
    cfg = dict(cell="lstm", norm=norm, input_size=3, hidden_size=4, num_layers=layers, dtype=dtype,
               forget_bias=1.0, head=HEAD, window=K, alphabet_size=C)
    if window_norm is not None:
        cfg["window_norm"] = window_norm
    return build_model(cfg, seed=seed)


def batch(seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, B, 3)).astype(dtype)
    x[..., 2] = rng.random((T, B)) < 0.2
    y = rng.normal(size=(B, T, 3)).astype(dtype)
    y[..., 2] = rng.random((B, T)) < 0.2
    lengths = np.array([6, 4, 5])
    codes = rng.integers(0, C, (B, U))
    ulen = np.array([4, 2, 3])
    return x, y, lengths, (codes, ulen)


@pytest.mark.parametrize("norm, window_norm", [("none", None), ("ln", None), ("bn", None), ("ln", "none"),
                                               ("none", "bn")])
def test_whole_model_gradients_equal_central_differences(norm, window_norm):
    """Every parameter of a 2-layer synthesis model (window, both layers, head), masks on points and on
    characters, BN in training mode, the window's layer with the stack's norm or its own: the loss's
    hand-written gradient equals central differences."""
    m = synthesis_model(norm, window_norm=window_norm)
    x, y, lengths, text = batch()
    m.loss_and_grad(x, y, lengths, text=text)
    grads = {k: v.copy() for k, v in m.grads.items()}

    def loss():
        return m.loss_and_grad(x, y, lengths, text=text)["loss"]

    rng = np.random.default_rng(3)
    for name, p in m.params.items():
        idx = sample_idx(p, 12, rng)
        num = numeric_grad(loss, p, idx=idx)
        assert rel_error(grads[name].ravel()[idx], num) < 1e-6, name


def test_padded_characters_and_points_add_nothing():
    """Codes past a row's text length and inputs past its points change no loss and no gradient."""
    m = synthesis_model("ln")
    x, y, lengths, (codes, ulen) = batch()
    r1 = m.loss_and_grad(x, y, lengths, text=(codes, ulen))
    g1 = m.flat[1].data.copy()
    codes2, x2 = codes.copy(), x.copy()
    for b in range(B):
        codes2[b, ulen[b]:] = (codes2[b, ulen[b]:] + 1) % C
        x2[lengths[b]:, b] = 7.0
    r2 = m.loss_and_grad(x2, y, lengths, text=(codes2, ulen))
    assert r1 == r2
    np.testing.assert_array_equal(g1, m.flat[1].data)
    # while a code inside the text changes both
    codes2[0, 0] = (codes2[0, 0] + 1) % C
    assert m.loss_and_grad(x2, y, lengths, text=(codes2, ulen))["loss"] != r1["loss"]


def test_truncated_bptt_whole_sequence_and_chunks():
    """tbptt >= T is the whole-sequence result bit for bit; chunks carry the window's state (kappa, w)
    forward, so the loss (a forward quantity) agrees to rounding."""
    m = synthesis_model("ln")
    x, y, lengths, text = batch()
    whole = m.loss_and_grad(x, y, lengths, text=text)
    g = m.flat[1].data.copy()
    assert m.loss_and_grad(x, y, lengths, tbptt=T, text=text) == whole
    np.testing.assert_array_equal(g, m.flat[1].data)
    chunked = m.loss_and_grad(x, y, lengths, tbptt=2, text=text)
    assert abs(chunked["loss"] - whole["loss"]) < 1e-12 * abs(whole["loss"])
    assert not np.array_equal(g, m.flat[1].data)  # no gradient crosses a chunk boundary


def test_evaluation_chunks_and_steps_agree_with_the_training_forward():
    """Inference in time chunks and one step at a time give the training forward's outputs."""
    m = synthesis_model("ln")
    x, y, _, text = batch()
    y_all, _ = m.stack.forward(x, training=False, keep=False, text=text)
    state, outs = None, []
    for t in range(T):
        y_t, state = m.stack.step(x[t], state, t=t, text=text)
        outs.append(y_t)
    np.testing.assert_allclose(np.stack(outs), y_all, rtol=1e-12, atol=1e-14)
    phi_all = m.stack.forward(x, training=False, keep=False, text=text)[0] is not None and m.stack.phi
    assert phi_all.shape == (T, B, U)
    assert np.all(phi_all[:, 1, 2:] == 0)             # row 1's text has 2 characters


def test_the_model_refuses_a_missing_or_unwanted_text():
    m = synthesis_model("none")
    x, y, lengths, text = batch()
    with pytest.raises(ValueError, match="writes a given text"):
        m.loss_and_grad(x, y, lengths)
    codes, ulen = text
    with pytest.raises(ValueError, match=r"codes must lie in \[0, 5\)"):
        m.loss_and_grad(x, y, lengths, text=(codes + 5, ulen))
    with pytest.raises(ValueError, match="text lengths"):
        m.loss_and_grad(x, y, lengths, text=(codes, ulen + 3))
    plain = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                             forget_bias=1.0, head=HEAD), seed=0)
    with pytest.raises(ValueError, match="reads no text"):
        plain.loss_and_grad(x, y, lengths, text=text)


def test_rnn_cells_have_no_window():
    with pytest.raises(ValueError, match="LSTM cells"):
        build_model(dict(cell="rnn", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=HEAD, window=2, alphabet_size=C))


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_train_writes_a_text_task_with_the_window_and_eval_reproduces(tmp_path):
    pytest.importorskip("HersheyFonts", reason="the hershey extra is not installed")
    out = tmp_path / "write"
    r = invoke("train", "--task", "strokes-hershey", "--split", "12/4", "--hidden", 6, "--layers", 2,
               "--batch-size", 4, "--max-steps", 3, "--epochs", 1, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    meta = json.loads((out / "checkpoint.json").read_text())
    assert meta["model"]["window"] == 10
    assert meta["model"]["norm"] == "ln" and meta["model"]["window_norm"] == "none"   # ln-lstm's window layer
    assert meta["model"]["alphabet_size"] == len(meta["text"]["alphabet"])
    logged = [json.loads(s) for s in (out / "metrics.jsonl").read_text().splitlines()][-1]
    r = invoke("eval", "--checkpoint", out)
    assert r.exit_code == 0, r.output
    assert f"{logged['val_loss']:.4f}" in r.output


@pytest.mark.parametrize("args, message", [
    (("--task", "strokes-synthetic", "--window", 3), "have none; use --window 0"),
    (("--task", "strokes-hershey", "--cell", "ln-rnn"), "runs with the LSTM cells"),
    (("--task", "strokes-hershey", "--no-skip"), "skip-connected stack"),
    (("--task", "strokes-hershey", "--window", -1), "--window must be 0"),
    (("--task", "strokes-synthetic", "--window-norm", "none"), "has no attention window"),
    (("--task", "strokes-hershey", "--head", "ctc", "--window-norm", "ln"), "has no attention window"),
])
def test_train_refuses_windows_it_cannot_build(tmp_path, args, message):
    if "strokes-hershey" in args:
        pytest.importorskip("HersheyFonts", reason="the hershey extra is not installed")
    r = invoke("train", *args, "--split", "12/4", "--batch-size", 4, "--hidden", 4, "--layers", 1, "--max-steps", 1,
               "--out", tmp_path / "r", "-q")
    assert r.exit_code != 0
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_window_norm_sets_the_first_layers_norm_only_and_is_saved():
    """window_norm: layer 1 (the window's) takes that norm, the layers above keep the stack's; the config
    carries it (only where it differs), and a model rebuilt from that config has the same parameters and
    gives the same loss. An LN stack whose window layer has no norm differs from both the all-LN and the
    all-plain stack."""
    m = synthesis_model("ln", window_norm="none", layers=3)
    norms = [layer.norm for layer in m.stack.layers]
    assert norms == ["none", "ln", "ln"]
    assert "rnn.l0.gx" not in m.params and "rnn.l1.gx" in m.params
    assert m.config["window_norm"] == "none" and m.config["norm"] == "ln"
    assert "window_norm" not in synthesis_model("ln", window_norm="ln").config
    again = build_model(m.config, seed=1)
    assert sorted(again.params) == sorted(m.params)
    x, y, lengths, text = batch()
    losses = [mm.loss_and_grad(x, y, lengths, text=text)["loss"]
              for mm in (m, again, synthesis_model("ln", layers=3), synthesis_model("none", layers=3))]
    assert losses[0] == losses[1]
    assert losses[0] != losses[2] and losses[0] != losses[3]
    with pytest.raises(ValueError, match="window_norm"):
        synthesis_model("ln", window_norm="layer")


def test_masked_final_state_is_each_rows_last_step():
    """With lengths, each row's final state (h, c, kappa, w of layer 1; h, c above) is the one after its own
    last step: the state of a forward over that row's steps alone."""
    m = synthesis_model("ln")
    x, _, lengths, (codes, ulen) = batch()
    _, states = m.stack.forward(x, training=False, keep=False, lengths=lengths, text=(codes, ulen))
    for b in range(B):
        L = lengths[b]
        _, alone = m.stack.forward(np.ascontiguousarray(x[:L, b:b + 1]), training=False, keep=False,
                                   text=(codes[b:b + 1], ulen[b:b + 1]))
        for layer_state, layer_alone in zip(states, alone):
            for s, a in zip(layer_state, layer_alone):
                np.testing.assert_allclose(s[b], a[0], rtol=1e-12, atol=1e-14)


def test_step_end_is_phi_just_past_the_text():
    """stack.step_end is phi(t, ulen + 1), computed by the spec's formula from the step's window."""
    from lnrnn import reference
    m = synthesis_model("none")
    x, _, _, (codes, ulen) = batch()
    _, st = m.stack.step(x[0], None, t=0, text=(codes, ulen))
    L1 = m.stack.layers[0]
    y, _ = m.stack.forward(x[:1], training=False, keep=False, text=(codes, ulen))
    p = y[0, :, :4] @ L1.params["Wp"] + L1.params["bp"]
    K = 2
    want = reference.window_phi_at(st[0][2], np.exp(p[:, :K]), np.exp(p[:, K:2 * K]), (ulen + 1.0)[:, None])
    np.testing.assert_allclose(m.stack.step_end, want, rtol=1e-12)
    # and the same formula at u = 1..U is the step's phi
    for u in range(1, U + 1):
        at = reference.window_phi_at(st[0][2], np.exp(p[:, :K]), np.exp(p[:, K:2 * K]), np.float64(u))
        np.testing.assert_allclose(m.stack.step_phi[:, u - 1], np.where(u <= ulen, at, 0.0), rtol=1e-12, atol=1e-300)


def test_text_batches_carry_each_lines_own_length():
    pytest.importorskip("HersheyFonts", reason="the hershey extra is not installed")
    from lnrnn.data.tasks import load_task, task_spec
    task = load_task(task_spec("strokes-hershey", split="12/4"))
    idx = np.array([0, 3, 5])
    codes, ulen = task.text_batch("train", idx)
    for row, i in enumerate(idx):
        text = task.text("train", i)
        assert ulen[row] == len(text)
        assert "".join(task.alphabet[c] for c in codes[row, :ulen[row]]) == text
        assert not codes[row, ulen[row]:].any()


def test_export_names_the_window_and_torch_refuses_the_stack(tmp_path):
    """lnrnn export writes a synthesis run's window as window_weight/window_bias (Wp.T, bp) beside the
    layers' wider input weights; lnrnn.torch.from_run refuses it in one sentence (no module has a window)."""
    from lnrnn.interop.export import exported_tensors, read_safetensors
    from lnrnn.training.checkpoint import save_checkpoint
    m = synthesis_model("ln")
    t = exported_tensors(m)
    np.testing.assert_array_equal(t["rnn.window_weight_l0"], m.params["rnn.l0.Wp"].T)
    np.testing.assert_array_equal(t["rnn.window_bias_l0"], m.params["rnn.l0.bp"])
    assert t["rnn.weight_ih_l0"].shape == (16, 3 + C) and t["rnn.weight_ih_l1"].shape == (16, 3 + 4 + C)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    save_checkpoint(str(tmp_path / "run"), arrays, {"model": m.config, "step": 0, "task": {"task": "strokes-hershey"},
                                                    "train": {"cell": "ln-lstm"}})
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", tmp_path / "w.safetensors")
    assert r.exit_code == 0, r.output
    got, _ = read_safetensors(tmp_path / "w.safetensors")
    np.testing.assert_array_equal(got["rnn.window_bias_l0"], m.params["rnn.l0.bp"])
    torch_mod = pytest.importorskip("lnrnn.torch", reason="the torch extra is not installed")
    with pytest.raises(ValueError, match="synthesis network"):
        torch_mod.from_run(str(tmp_path / "run"))
