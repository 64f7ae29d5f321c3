"""The package's structure: one cell registry, one flat buffer, masks, chunks and steps.

Each property is checked against a definition that does not share its code path: a masked batch
against the same sequences run one by one, chunks and single steps against the whole sequence,
truncated BPTT against chunk-by-chunk gradients assembled by hand, flat views against the named arrays.
"""
import json

import numpy as np
import pytest

from lnrnn.model import cells
from lnrnn.model.heads import ClassifierHead, RegressionHead
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from lnrnn.model.models import SequenceModel, build_model, upgrade_config
from lnrnn.training.optim import make_optimizer

ALL = [(c.cell, c.norm) for c in cells.CELLS.values()]
UNBATCHED = [(c, n) for c, n in ALL if n != "bn"]  # cells whose rows do not see each other


def perturbed_stack(cell, norm, I=2, H=5, layers=2, seed=0, max_steps=1):
    stack = RecurrentStack(cell, norm, I, H, num_layers=layers, dtype=np.float64, seed=seed, max_steps=max_steps)
    rng = np.random.default_rng(seed + 100)
    stack.flat[0].data[...] += 0.2 * rng.standard_normal(stack.flat[0].data.size)
    return stack


# ---- registry ----

def test_registry_is_the_one_table():
    from lnrnn.commands.options import CELLS as cli_cells
    assert list(cli_cells) == list(cells.CELLS)
    for name, c in cells.CELLS.items():
        assert cells.parse_cell(name) == (c.cell, c.norm)
        layer = RecurrentLayer(c.cell, c.norm, 3, 4, dtype=np.float64)
        assert [(n, a.shape) for n, a in layer.params.items()] == c.param_shapes(3, 4)
        assert tuple(layer.params) == c.param_names and tuple(layer.buffers) == c.buffer_names
        assert layer.nstate == c.nstate and set(c.grads) == set(layer.params)
    with pytest.raises(ValueError, match="unknown cell 'gru'; choose one of rnn, lstm, ln-rnn"):
        cells.get("gru")


# ---- one home per fact, no import circles, the trainer only where it trains ----

def _lnrnn_imports():
    """{module: set of lnrnn modules it imports at module level or inside functions} of every module."""
    import ast
    import pathlib
    import lnrnn
    root = pathlib.Path(lnrnn.__file__).parent
    out = {}
    for path in root.rglob("*.py"):
        mod = "lnrnn." + ".".join(path.relative_to(root).with_suffix("").parts)
        mod = mod[:-len(".__init__")] if mod.endswith(".__init__") else mod
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lnrnn"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("lnrnn"))
        out[mod] = deps
    return {m: {d for d in ds if d in out and d != m} for m, ds in out.items()}


def test_no_import_circles_between_the_package_modules():
    graph = _lnrnn_imports()
    state = {}

    def visit(m, path):
        state[m] = "open"
        for d in graph[m]:
            if d.startswith(m + ".") or m.startswith(d + ".") and d == "lnrnn":
                continue  # a package and its own modules
            if state.get(d) == "open":
                raise AssertionError("import circle: " + " -> ".join(path + [d]))
            if d not in state:
                visit(d, path + [d])
        state[m] = "done"
    for m in graph:
        if m not in state and m != "lnrnn":
            visit(m, [m])


def test_tests_import_their_helpers_by_module_name():
    """tests/ is no package: a test imports its helpers as bn_problems, gradcheck_util, ... (pytest puts
    tests/ on the path). `from tests.x import` would find an installed package named tests first
    (hershey-fonts ships one) and fail at collection."""
    import pathlib
    import re
    here = pathlib.Path(__file__).parent
    bad = [p.name for p in here.rglob("*.py") if re.search(r"^\s*(from|import) tests\b", p.read_text(), re.M)]
    assert not bad, f"{bad} import tests.<module>; import the helper by its module name"


def test_tests_mirror_the_package_with_unique_module_names():
    """A test of lnrnn/X/ lives in tests/X/ (tests of lnrnn's top-level modules in tests/ itself); tests
    import each other by module name (tests/conftest.py puts every folder on the path), so a name may
    appear once across the folders, and no folder is a package (an __init__.py would change the names)."""
    import collections
    import pathlib
    here = pathlib.Path(__file__).parent
    import lnrnn
    package = pathlib.Path(lnrnn.__file__).parent
    mods = [p for p in here.rglob("*.py") if "mutants" not in p.parts and "__pycache__" not in p.parts]
    twice = [n for n, k in collections.Counter(p.name for p in mods).items() if k > 1]
    assert not twice, f"test module names used twice: {twice}"
    assert not list(here.rglob("__init__.py")), "tests/ holds no package"
    folders = {p.parent.name for p in mods if p.parent != here}
    subpackages = {p.name for p in package.iterdir() if (p / "__init__.py").exists()} | {"dev"}
    assert folders <= subpackages, f"test folders {sorted(folders - subpackages)} mirror no folder of lnrnn (or dev/)"
    for sub in ("kernels", "model", "training", "data", "interop", "commands"):
        assert list((here / sub).glob("test_*.py")), f"tests/{sub}/ holds no tests of lnrnn/{sub}/"


def test_the_trainer_is_imported_by_the_train_command_alone():
    import subprocess
    import sys
    code = ("import sys, lnrnn.cli, lnrnn.api, lnrnn.commands.eval, lnrnn.commands.predict, lnrnn.training.evaluation; "
            "print('lnrnn.training.train' in sys.modules, 'lnrnn.training.prewarm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


def test_import_lnrnn_starts_no_threads_and_leaves_the_allocator():
    """import lnrnn (the API, the CLI's group) prepares nothing; loading the kernels prepares the process
    once (passive OpenMP waiting, the allocator), so that a kernel called directly runs as under a layer."""
    import subprocess
    import sys
    probe = ("from lnrnn import threadscope; import numba.np.ufunc.parallel as p; "
             "print(threadscope._prepared != {}, p._is_initialized)")
    out = subprocess.run([sys.executable, "-c", "import lnrnn; " + probe], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"], "import lnrnn set up threads or the allocator"
    out = subprocess.run([sys.executable, "-c", "import lnrnn.kernels.lstm; " + probe], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["True", "True"], "loading the kernels left the threading layer to whichever call came first"


# ---- one flat buffer ----

@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "bn")])
def test_every_parameter_and_gradient_is_a_view_of_one_buffer(cell, norm):
    stack = RecurrentStack(cell, norm, 3, 4, num_layers=2, dtype=np.float32)
    model = SequenceModel(stack, ClassifierHead(4, 5, dtype="float32"))
    pflat, gflat = model.flat
    assert pflat.data.ndim == 1 and pflat.data.flags.c_contiguous
    assert model.num_params() == sum(v.size for v in model.params.values()) == pflat.data.size
    for d, flat in ((model.params, pflat), (model.grads, gflat)):
        assert list(d) == flat.names
        for name, v in d.items():
            assert np.shares_memory(v, flat.data), name
            np.testing.assert_array_equal(v, flat.views[name])
    # the layers' own dicts hold the same views: a write through the flat buffer reaches the kernels
    pflat.data[...] = np.arange(pflat.data.size, dtype=np.float32)
    np.testing.assert_array_equal(stack.layers[1].params["Wh"], model.params["rnn.l1.Wh"])
    assert stack.layers[1].params["Wh"].flat[0] == pflat.views["rnn.l1.Wh"].flat[0] != 0
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 2, 3)).astype(np.float32) * 1e-3
    pflat.data[...] = 0.01 * rng.standard_normal(pflat.data.size).astype(np.float32)
    model.loss_and_grad(x, np.array([1, 2]))
    assert np.abs(gflat.data).sum() > 0
    assert np.shares_memory(stack.layers[0].grads["Wx"], gflat.data)
    model.zero_grad()
    assert not np.any(gflat.data) and not np.any(stack.layers[0].grads["Wx"])


def test_flat_optimizer_step_equals_per_parameter_step():
    rng = np.random.default_rng(1)
    a = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=3, num_layers=1, dtype="float64",
                         forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False}))
    params = {k: v.copy() for k, v in a.params.items()}
    grads = {k: rng.standard_normal(v.shape) for k, v in params.items()}
    for kind in ("adam", "rmsprop", "sgd", "rmsprop-graves", "rmsprop-momentum"):
        per, flat = make_optimizer(kind, 1e-2), make_optimizer(kind, 1e-2)
        p1 = {k: v.copy() for k, v in params.items()}
        for name, v in a.params.items():
            v[...] = params[name]
        for name, g in a.grads.items():
            g[...] = grads[name]
        for _ in range(3):
            per.step(p1, grads)
            flat.step(a.flat[0].data, a.flat[1].data)
        for k in p1:
            np.testing.assert_array_equal(p1[k], a.params[k], err_msg=f"{kind} {k}")
        # saved per name, as checkpoints always stored them; loads back into a flat slot
        st = flat.state_dict(a.flat[0])
        for slot, d in st["slots"].items():
            if not d and not per.state_dict()["slots"][slot]:
                continue  # a slot this configuration does not use (the non-centred RMSProp's average)
            assert set(d) == set(a.params), slot
            for k in d:
                np.testing.assert_array_equal(d[k], per.state_dict()["slots"][slot][k])
        again = make_optimizer(kind, 1e-2)
        again.load_state_dict(st, a.flat[0])
        for slot in again.slots:
            if again.slots[slot]:
                np.testing.assert_array_equal(again.slots[slot][""], flat.slots[slot][""])


# ---- masks ----

@pytest.mark.parametrize("cell,norm", UNBATCHED)
def test_masked_batch_equals_sequences_run_one_by_one(cell, norm):
    """Layer level: outputs on running steps, each row's final state (after its own last step), dx and
    every parameter gradient equal those of the sequences run alone at their own lengths."""
    rng = np.random.default_rng(2)
    T, B, I, H = 6, 4, 2, 5
    lengths = np.array([6, 3, 0, 1])
    stack = perturbed_stack(cell, norm, I, H)
    x = rng.standard_normal((T, B, I))
    x[T - 1, 1:] = 1e6  # padded values must not matter
    state = [tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate)) for layer in stack.layers]
    dy = rng.standard_normal((T, B, H))
    y, final = stack.forward(x, state, lengths=lengths)
    stack.zero_grad()
    dx = stack.backward(dy)
    grads = {k: v.copy() for k, v in stack.grads.items()}
    want = {k: np.zeros_like(v) for k, v in grads.items()}
    for b, L in enumerate(lengths):
        s_b = [tuple(s[b:b + 1] for s in st) for st in state]
        if L == 0:
            for k in range(len(stack.layers)):
                for a, s in zip(final[k], s_b[k]):
                    np.testing.assert_array_equal(a[b:b + 1], s)
            assert not np.any(dx[:, b])
            continue
        yb, fb = stack.forward(np.ascontiguousarray(x[:L, b:b + 1]), s_b)
        np.testing.assert_allclose(y[:L, b:b + 1], yb, rtol=1e-12, atol=1e-13)
        for k in range(len(stack.layers)):
            for a, s in zip(final[k], fb[k]):
                np.testing.assert_allclose(a[b:b + 1], s, rtol=1e-12, atol=1e-13)
        stack.zero_grad()
        dxb = stack.backward(np.ascontiguousarray(dy[:L, b:b + 1]))
        np.testing.assert_allclose(dx[:L, b:b + 1], dxb, rtol=1e-10, atol=1e-12)
        assert not np.any(dx[L:, b]), "a padded step has a gradient"
        for k, v in stack.grads.items():
            want[k] += v
    for k in grads:
        np.testing.assert_allclose(grads[k], want[k], rtol=1e-10, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("per_step", [False, True])
def test_masked_model_loss_equals_per_sequence_losses(per_step):
    """Model level: the loss of a padded batch is the count-weighted mean of the per-sequence losses,
    and its gradient the same mix of their gradients."""
    rng = np.random.default_rng(3)
    T, B, I, H, C = 5, 3, 2, 4, 3
    lengths = np.array([2, 5, 4])
    model = SequenceModel(perturbed_stack("lstm", "ln", I, H), ClassifierHead(H, C, per_step, "float64", seed=1))
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T) if per_step else B)
    m = model.loss_and_grad(x, labels, lengths)
    grads = model.flat[1].data.copy()
    counts = lengths if per_step else np.ones(B, int)
    assert model.last_count == counts.sum()
    loss, g = 0.0, np.zeros_like(grads)
    for b, L in enumerate(lengths):
        lab = labels[b:b + 1, :L] if per_step else labels[b:b + 1]
        mb = model.loss_and_grad(np.ascontiguousarray(x[:L, b:b + 1]), lab)
        loss += mb["loss"] * counts[b]
        g += model.flat[1].data * counts[b]
    assert m["loss"] == pytest.approx(loss / counts.sum(), rel=1e-12)
    np.testing.assert_allclose(grads, g / counts.sum(), rtol=1e-9, atol=1e-12)


def test_lengths_are_validated():
    layer = RecurrentLayer("lstm", "ln", 2, 3, dtype=np.float64)
    x = np.zeros((4, 2, 2))
    with pytest.raises(ValueError, match="lengths must lie in"):
        layer.forward(x, lengths=np.array([5, 1]))
    with pytest.raises(ValueError, match="lengths must be 2 integers"):
        layer.forward(x, lengths=np.array([1.0, 2.0]))


# ---- chunks and steps ----

@pytest.mark.parametrize("cell,norm", ALL)
def test_chunks_and_steps_equal_the_whole_sequence(cell, norm):
    """Forward in chunks from the carried state (training: BN statistics per absolute step, and the
    population statistics updated at the right rows), and step by step in inference mode."""
    rng = np.random.default_rng(4)
    T, B, I, H = 7, 4, 3, 5
    x = rng.standard_normal((T, B, I))
    whole = perturbed_stack(cell, norm, I, H, max_steps=T)
    parts = perturbed_stack(cell, norm, I, H, max_steps=T)
    y, fin = whole.forward(x)
    ys, state = [], None
    for t0, t1 in ((0, 3), (3, 4), (4, 7)):
        yc, state = parts.forward(np.ascontiguousarray(x[t0:t1]), state, t0=t0)
        ys.append(yc)
    np.testing.assert_allclose(np.concatenate(ys), y, rtol=1e-12, atol=1e-13)
    for a, b in zip(fin, state):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-13)
    for k, v in whole.buffers.items():
        np.testing.assert_allclose(parts.buffers[k], v, rtol=1e-12, atol=1e-14, err_msg=k)
    # inference, one step at a time (sampling), against the whole sequence in inference mode
    y_inf, _ = whole.forward(x, training=False)
    state = None
    for t in range(T):
        y_t, state = whole.step(x[t], state, t=t)
        np.testing.assert_allclose(y_t, y_inf[t], rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "none"), ("lstm", "bn")])
def test_truncated_bptt_is_the_sum_of_chunk_gradients(cell, norm):
    """tbptt >= T is the whole-sequence result bit for bit; shorter chunks give the loss of the whole
    sequence and the sum of each chunk's gradient from its (detached) carried state."""
    rng = np.random.default_rng(5)
    T, B, I, H, C = 6, 3, 2, 4, 3
    model = SequenceModel(perturbed_stack(cell, norm, I, H, max_steps=T), ClassifierHead(H, C, True, "float64", 1))
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T))
    whole = model.loss_and_grad(x, labels)
    g_whole = model.flat[1].data.copy()
    same = model.loss_and_grad(x, labels, tbptt=T)
    assert same == whole
    np.testing.assert_array_equal(model.flat[1].data, g_whole)
    chunked = model.loss_and_grad(x, labels, tbptt=4)
    g_chunk = model.flat[1].data.copy()
    assert chunked["loss"] == pytest.approx(whole["loss"], rel=1e-12)
    assert not np.allclose(g_chunk, g_whole)  # truncation drops the gradient across the boundary
    # by hand: chunk 1 from zeros, chunk 2 from chunk 1's final state; each weighted by its share
    _, s1 = model.stack.forward(np.ascontiguousarray(x[:4]))
    m1 = model.loss_and_grad(np.ascontiguousarray(x[:4]), labels[:, :4])
    g1 = model.flat[1].data.copy()
    m2 = model.loss_and_grad(np.ascontiguousarray(x[4:]), labels[:, 4:], state=s1)
    if norm != "bn":  # BN: chunk 2 run alone would index its statistics from step 0
        g2 = model.flat[1].data.copy()
        np.testing.assert_allclose(g_chunk, (4 * g1 + 2 * g2) / 6, rtol=1e-9, atol=1e-12)
        assert chunked["loss"] == pytest.approx((4 * m1["loss"] + 2 * m2["loss"]) / 6, rel=1e-12)


def test_regression_head_gradient_per_step_with_lengths():
    """Central differences of the mean loss of a per-step regression head on a padded batch."""
    from lnrnn.gradcheck import numeric_grad, rel_error
    rng = np.random.default_rng(6)
    T, B, I, H = 4, 3, 2, 3
    model = SequenceModel(perturbed_stack("rnn", "ln", I, H, layers=1), RegressionHead(H, 2, True, dtype="float64"))
    x = rng.standard_normal((T, B, I))
    y = rng.standard_normal((B, T, 2))
    lengths = np.array([4, 1, 3])
    model.loss_and_grad(x, y, lengths)
    analytic = model.flat[1].data.copy()
    num = numeric_grad(lambda: model.loss_and_grad(x, y, lengths)["loss"], model.flat[0].data)
    assert rel_error(analytic, num) < 1e-6


# ---- old run folders ----

def test_version_01_model_config_upgrades():
    old = dict(cell="lstm", norm="ln", input_size=1, hidden_size=8, num_layers=1, num_classes=10,
               objective="ce", per_step=False, dtype="float32", forget_bias=1.0)
    new = upgrade_config(old)
    assert new["head"] == {"kind": "classifier", "outputs": 10, "per_step": False}
    assert upgrade_config(new) == new
    reg = upgrade_config(dict(old, num_classes=1, objective="mse", tolerance=0.04))
    assert reg["head"]["kind"] == "regression" and reg["head"]["tolerance"] == 0.04


def test_version_01_run_folder_resumes(tmp_path):
    """A run folder written by lnrnn 0.1 (classifier fields in the model config, epoch sums as a list)
    resumes, and ends where a run of today's format ends."""
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import train
    base = dict(task="digits", split="96/32", hidden=6, batch_size=16, epochs=2, seed=0)
    ref = train(TrainConfig(**base, out=str(tmp_path / "ref")), quiet=True, log=lambda m: None)
    out = str(tmp_path / "old")
    train(TrainConfig(**base, out=out, max_steps=3), quiet=True, log=lambda m: None)
    path = tmp_path / "old" / "checkpoint.json"
    meta = json.loads(path.read_text())
    h = meta["model"].pop("head")
    meta["model"].update(num_classes=h["outputs"], objective="ce", per_step=h["per_step"])
    es = meta["epoch_sums"]
    meta["epoch_sums"] = [es["sums"]["loss"], es["sums"]["acc"], es["count"], es["samples"]]
    path.write_text(json.dumps(meta))
    resumed = train(TrainConfig(**base, out=out), resume=True, explicit=(), quiet=True, log=lambda m: None)
    np.testing.assert_array_equal(resumed.model.flat[0].data, ref.model.flat[0].data)
    assert [r["val_loss"] for r in resumed.history] == [r["val_loss"] for r in ref.history]


# ---- gradient checks: masks, chunks, every cell x head ----

@pytest.mark.parametrize("cell,norm", ALL)
def test_stack_gradcheck_masked_and_chunked(cell, norm):
    """Central differences, float64, two layers: a padded batch (one empty row, one full), and a
    chunk starting at step 3 from a given state (BN: statistics rows 3..7). Every step keeps three
    running rows: BN over one or two rows normalizes to (nearly) constants whose curvature (~1/sqrt(eps))
    swamps central differences at the checker's step size, masked or not."""
    from lnrnn.gradcheck import TOLERANCE, check_stack
    for kw in (dict(B=6, lengths=np.array([5, 2, 0, 5, 5, 4])), dict(B=3, t0=3)):
        results = check_stack(cell, norm, T=5, I=3, H=4, num_layers=2, training=True, seed=21, **kw)
        bad = [(n, e) for n, e in results if not e < TOLERANCE]
        assert not bad, (kw, bad)


@pytest.mark.parametrize("cell,norm", ALL)
@pytest.mark.parametrize("head,per_step", [("classifier", False), ("classifier", True), ("regression", False),
                                           ("regression", True), ("mdn", True)])
def test_model_gradcheck_every_cell_and_head(cell, norm, head, per_step):
    from lnrnn.gradcheck import TOLERANCE, check_model
    lengths = np.array([5, 3, 1, 5, 5]) if per_step else None
    results = check_model(cell, norm, head, per_step, T=5, B=5, I=2, H=3, seed=22, max_elems=12, lengths=lengths)
    assert {n for n, _ in results} >= {"rnn.l1.Wh", "head.W", "head.b"}
    bad = [(n, e) for n, e in results if not e < TOLERANCE]
    assert not bad, bad


def test_bn_padded_rows_change_nothing():
    """BN statistics count running rows only: the values in padded steps change no output of a
    running step, no final state and no gradient (training mode, float64)."""
    T, B, I, H = 6, 5, 2, 3
    lengths = np.array([6, 2, 4, 6, 1])
    pad = np.arange(T)[:, None] >= lengths[None, :]
    out = []
    for fill in (0.0, 1e3):
        stack = perturbed_stack("lstm", "bn", I, H, max_steps=T)
        x = np.random.default_rng(8).standard_normal((T, B, I))
        x[pad] = fill
        y, fin = stack.forward(x, lengths=lengths)
        stack.zero_grad()
        dx = stack.backward(np.ones((T, B, H)))
        out.append((y * ~pad[:, :, None], fin, dx, stack.flat[1].data.copy(), stack.buffers))
    (y0, f0, dx0, g0, b0), (y1, f1, dx1, g1, b1) = out
    np.testing.assert_allclose(y0, y1, rtol=1e-12, atol=1e-12)
    for a, b in zip(f0, f1):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dx0, dx1, rtol=1e-10, atol=1e-12)
    assert not np.any(dx0[pad]), "a padded step has an input gradient"
    np.testing.assert_allclose(g0, g1, rtol=1e-10, atol=1e-12)
    for k in b0:
        np.testing.assert_allclose(b0[k], b1[k], rtol=1e-12, atol=1e-12, err_msg=k)


# ---- a new head drops in without touching the trainer ----

def test_a_new_head_drops_in(tmp_path, monkeypatch):
    """A head the trainer has never heard of (an L1 loss, one metric, per step) on a task that asks for
    it: trains, resumes, writes metrics.jsonl and a picture of exactly its metric, evaluates."""
    from click.testing import CliRunner

    from lnrnn.model import heads
    from lnrnn.cli import main
    from lnrnn.data import tasks
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.rundir import read_jsonl
    from lnrnn.training.train import train

    class L1Head(heads.Head):
        kind = "l1"
        metrics = ("loss",)

        def forward(self, h, targets, valid):
            err = (self.linear(h) - np.swapaxes(targets, 0, 1)) * valid[..., None]
            return {"loss": float(np.abs(err).sum())}, int(valid.sum()), (h, err)

        def backward(self, cache, scale):
            h, err = cache
            return self.linear_backward(h, (scale * np.sign(err)).astype(self.dtype))

    monkeypatch.setitem(heads.HEADS, "l1", L1Head)
    rng = np.random.default_rng(0)
    x = rng.random((60, 7, 2)).astype(np.float32)
    y = np.cumsum(x, axis=1).astype(np.float32)                   # (N,T,2): running sums, per step
    spec = {"task": "adding"}
    task = tasks.TaskData(spec, "running sums", x[:40], y[:40], x[40:], y[40:], num_classes=2,
                          head={"kind": "l1", "outputs": 2, "per_step": True})
    monkeypatch.setattr("lnrnn.training.setup.load_task", lambda s: task)
    monkeypatch.setattr("lnrnn.api.load_task", lambda s: task)  # what lnrnn eval calls
    out = str(tmp_path / "run")
    base = dict(task="adding", hidden=5, batch_size=8, epochs=2, cell="ln-rnn", out=out)
    train(TrainConfig(**base, max_steps=7), quiet=True, log=lambda m: None)
    tr = train(TrainConfig(**base), resume=True, quiet=True, log=lambda m: None)
    recs = read_jsonl(f"{out}/metrics.jsonl")
    assert len(recs) == 2 and all(set(r) >= {"train_loss", "val_loss"} and "val_acc" not in r for r in recs)
    assert recs[1]["val_loss"] < recs[0]["train_loss"]
    svg = open(f"{out}/learning_curve.svg").read()
    assert "loss" in svg and "accuracy" not in svg
    assert tr.model.config["head"]["kind"] == "l1"
    r = CliRunner().invoke(main, ["eval", "--checkpoint", out, "--json"])
    assert r.exit_code == 0, r.output
    res = json.loads(r.output)
    assert res["loss"] == pytest.approx(recs[-1]["val_loss"], rel=1e-6) and "acc" not in res


# ---- Graves's skip-connected stack ----

@pytest.mark.parametrize("cell,norm", ALL)
def test_skip_stack_gradcheck(cell, norm):
    """Input into every layer, every layer into the output: stack gradients (x, every parameter and
    initial state) on a padded batch, and the whole model with the mixture density head."""
    from lnrnn.gradcheck import TOLERANCE, check_model, check_stack
    r = check_stack(cell, norm, T=5, B=6, I=3, H=4, num_layers=3, seed=31, skip=True,
                    lengths=np.array([5, 2, 0, 5, 5, 4]))
    r += check_model(cell, norm, "mdn", True, T=5, B=5, I=3, H=3, num_layers=3, seed=32, max_elems=12,
                     lengths=np.array([5, 3, 1, 5, 5]), skip=True)
    bad = [(n, e) for n, e in r if not e < TOLERANCE]
    assert not bad, bad


def test_skip_stack_shapes_and_wiring():
    """Layer k > 0 reads [x | h_{k-1}]; the output is [h_0 | h_1 | h_2]: rebuild it layer by layer."""
    rng = np.random.default_rng(9)
    stack = RecurrentStack("lstm", "ln", 3, 4, num_layers=3, dtype=np.float64, seed=1, skip=True)
    assert [layer.I for layer in stack.layers] == [3, 7, 7] and stack.output_size == 12
    x = rng.standard_normal((6, 2, 3))
    y, states = stack.forward(x)
    h, inp = [], x
    for layer in stack.layers:
        hk, _ = layer.forward(inp)
        h.append(hk)
        inp = np.concatenate([x, hk], axis=2)
    np.testing.assert_array_equal(y, np.concatenate(h, axis=2))
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=3, dtype="float64",
                         forget_bias=1.0, skip=True, head={"kind": "mdn", "components": 2, "per_step": True}))
    assert m.head.params["W"].shape == (12, 13) and m.config["skip"] is True
    plain = RecurrentStack("lstm", "ln", 3, 4, num_layers=3)
    assert "skip" not in plain.config and plain.output_size == 4
