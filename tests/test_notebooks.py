"""The notebooks run top to bottom from a clean kernel, and compute what they say.

Each notebook is executed in memory (the committed file is never written) with its small budget
(LNRNN_NOTEBOOK_BUDGET=small, read by its parameter cell) and TMPDIR pointed at pytest's scratch folder,
where the notebooks put their run folders. A cell appended to the in-memory copy prints the values the
notebook computed as JSON, and this file checks them against its own NumPy: the notebooks also assert
their claims themselves, so a wrong kernel fails both ways. The committed notebooks are checked for the
outputs of a full run (the version readers see without running anything).
"""
import json
import os

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

NOTEBOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "notebooks")
NAMES = ["01_layernorm_vs_batchnorm.ipynb", "02_sequential_mnist.ipynb", "03_handwriting.ipynb",
         "04_pytorch_and_jax.ipynb", "05_reading_handwriting.ipynb"]
TIMEOUT_S = 600  # per cell; the small budgets take seconds once the kernels are compiled

# What each notebook's appended cell reports (names defined by the notebook's own cells).
REPORTS = {
    "01_layernorm_vs_batchnorm.ipynb": """{"worked": y[0].tolist(), "Y_bn": Y_bn.tolist(), "Y_ln": Y_ln.tolist(),
        "variants": {k: v[0].tolist() for k, v in V.items()}, "grad_errors": [*errs.values(), *errs_bn.values()],
        "wrong_grad_error": errs_wrong, "bn_gaps": gaps.tolist(), "batch_sizes": Bs}""",
    "02_sequential_mnist.ipynb": """{"cells": CELLS, "updates": UPDATES,
        "curves": {c: [[e["step"], e["val_acc"], e["val_loss"]] for e in CURVES[c]] for c in CELLS},
        "grad_h": {c: DIAG[c]["grad_h"][0].tolist() for c in CELLS},
        "h_std": {c: DIAG[c]["h_std"][0].tolist() for c in CELLS}, "T": int(T_STEPS)}""",
    "03_handwriting.ipynb": """{"cells": CELLS, "updates": UPDATES, "steps": SAMPLE_STEPS,
        "losses": {f"{t}|{c}": RESULTS[t, c]["losses"].tolist() for t, c in RESULTS},
        "val": {f"{t}|{c}": [h["val_loss"] for h in RESULTS[t, c]["history"]] for t, c in RESULTS},
        "samples": {f"{t}|{c}": s.tolist() for (t, c), s in SAMPLES.items()}}""",
    "04_pytorch_and_jax.ipynb": """{"updates": UPDATES, "torch": {k: v[0].tolist() for k, v in TORCH.items()},
        "jax": jax_losses.tolist(), "run_pred": run_pred.tolist(), "y_va": y_va.tolist(), "reported": reported,
        "accs": accs}""",
    "05_reading_handwriting.ipynb": """{"updates": UPDATES, "losses": LOSSES.tolist(), "curve": CURVE, "truth": truth,
        "best": best, "beam": beam, "n_beam": N_BEAM, "cer": CER, "reported": reported,
        "judged": [[j.text, j.read, j.cer] for j in JUDGED], "texts": TEXTS}""",
}


def execute_small(name, tmp_path, monkeypatch):
    """Run notebook ``name`` with the small budget in memory -> (executed notebook, report dict)."""
    nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"import json as _json\nprint(_json.dumps({REPORTS[name]}))"))
    monkeypatch.setenv("LNRNN_NOTEBOOK_BUDGET", "small")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    before = sorted(os.listdir(NOTEBOOKS))
    client = NotebookClient(nb, timeout=TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": NOTEBOOKS}})  # the kernel starts in notebooks/
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails (a notebook assert included)
    assert sorted(os.listdir(NOTEBOOKS)) == before, "the notebook wrote files next to itself"
    assert os.listdir(tmp_path) == [], f"the notebook left {os.listdir(tmp_path)} in its scratch folder"
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    return nb, json.loads(text.strip().splitlines()[-1])


def figures(nb):
    return sum("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_01_layernorm_vs_batchnorm(tmp_path, monkeypatch):
    nb, r = execute_small("01_layernorm_vs_batchnorm.ipynb", tmp_path, monkeypatch)
    eps = 1e-5
    x = np.array([1.3, 0.9, 2.0, 2.6])
    np.testing.assert_allclose(r["worked"], (x - 1.7) / np.sqrt(0.425 + eps), rtol=1e-12)
    X = np.array([[1.3, 0.9, 2.0, 2.6], [1.5, 1.0, 2.1, 2.8], [1.1, 0.7, 1.8, 2.4]])
    np.testing.assert_allclose(r["Y_bn"], (X - X.mean(0)) / np.sqrt(X.var(0) + eps), atol=1e-12)
    np.testing.assert_allclose(r["Y_ln"], (X - X.mean(1, keepdims=True)) / np.sqrt(X.var(1, keepdims=True) + eps),
                               atol=1e-12)
    d = x - x.mean()
    expected = [d / np.sqrt(x.var() + eps), d / np.sqrt(x.var(ddof=1) + eps), d / (x.std() + eps),
                d / (x.std(ddof=1) + eps)]
    assert len(r["variants"]) == 4
    for got, want in zip(r["variants"].values(), expected):
        np.testing.assert_allclose(got, want, rtol=1e-10)
    assert max(r["grad_errors"]) < 1e-6 and r["wrong_grad_error"] > 0.1
    gaps = np.array(r["bn_gaps"])
    assert r["batch_sizes"][0] < r["batch_sizes"][-1] and gaps[0] > 3 * gaps[-1]
    assert figures(nb) >= 3


def test_02_sequential_mnist(tmp_path, monkeypatch):
    nb, r = execute_small("02_sequential_mnist.ipynb", tmp_path, monkeypatch)
    assert r["cells"] == ["lstm", "ln-lstm", "bn-lstm"]
    for cell in r["cells"]:
        curve = np.array(r["curves"][cell])                    # (evaluations, 3): step, val_acc, val_loss
        assert len(curve) >= 2 and curve[-1, 0] == r["updates"] and np.all(np.diff(curve[:, 0]) > 0)
        assert np.all((curve[:, 1] >= 0) & (curve[:, 1] <= 1)) and np.all(np.isfinite(curve[:, 2]))
        g, h = np.array(r["grad_h"][cell]), np.array(r["h_std"][cell])
        assert g.shape == h.shape == (r["T"],) and np.all(np.isfinite(g)) and np.all(g >= 0) and g[-1] > 0
    assert figures(nb) >= 3


def test_03_handwriting(tmp_path, monkeypatch):
    nb, r = execute_small("03_handwriting.ipynb", tmp_path, monkeypatch)
    assert r["cells"] == ["lstm", "ln-lstm", "bn-lstm"]
    assert {k.split("|")[0] for k in r["losses"]} == {"strokes-synthetic"}   # the small budget's one task
    for key, losses in r["losses"].items():
        assert len(losses) == r["updates"] and np.all(np.isfinite(losses))
        assert np.all(np.isfinite(r["val"][key]))
        pts = np.array(r["samples"][key])
        assert pts.shape == (r["steps"], 3) and np.all(np.isfinite(pts))
        assert set(np.unique(pts[:, 2])) <= {0.0, 1.0}
    assert figures(nb) >= 4


def test_04_pytorch_and_jax(tmp_path, monkeypatch):
    if os.environ.get("LNRNN_REQUIRE_EXTRAS") != "1":  # CI installs the torch and jax extras and sets it
        pytest.importorskip("torch")
        pytest.importorskip("jax")
    # torch keeps a compiler cache under TMPDIR (torchinductor_<user>): elsewhere, not in the notebook's scratch
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(tmp_path.parent / f"{tmp_path.name}-inductor"))
    nb, r = execute_small("04_pytorch_and_jax.ipynb", tmp_path, monkeypatch)
    assert set(r["torch"]) == {"lnrnn.torch.LSTM(norm='ln')", "torch.nn.LSTM"}
    for losses in [*r["torch"].values(), r["jax"]]:
        assert len(losses) == r["updates"] and np.all(np.isfinite(losses))
    assert abs(r["jax"][0] - np.log(10)) < 1e-5  # a zero head: uniform logits at the first update
    # from_run's predictions score exactly what evaluate_run (lnrnn eval) reports for the run
    pred, y = np.array(r["run_pred"]), np.array(r["y_va"])
    assert pred.shape == y.shape and abs(np.mean(pred == y) - r["reported"]) < 1e-12
    assert all(0 <= a <= 1 for a in r["accs"])
    assert figures(nb) >= 3


def levenshtein(a, b):
    """Edit distance by the textbook table: the judge of lnrnn.textmetrics here."""
    d = np.arange(len(b) + 1)
    for i, ca in enumerate(a, 1):
        prev, d[0] = d.copy(), i
        for j, cb in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (ca != cb))
    return int(d[-1])


def test_05_reading_handwriting(tmp_path, monkeypatch):
    nb, r = execute_small("05_reading_handwriting.ipynb", tmp_path, monkeypatch)
    losses = np.array(r["losses"])
    assert len(losses) == r["updates"] and np.all(np.isfinite(losses)) and np.all(losses > 0)  # CTC: -log p > 0
    steps = [s for s, _ in r["curve"]]
    assert steps[-1] == r["updates"] and np.all(np.diff(steps) > 0) and all(c >= 0 for _, c in r["curve"])
    # the notebook's CERs are edits over characters, recounted here; best path is what lnrnn eval reported
    truth, best, beam, n = r["truth"], r["best"], r["beam"], r["n_beam"]
    assert len(best) == len(truth) and len(beam) == n
    chars = sum(map(len, truth))
    cer = sum(levenshtein(t, b) for t, b in zip(truth, best)) / chars
    assert abs(r["cer"]["best path"] - cer) < 1e-12 and abs(r["reported"] - cer) < 1e-12
    cer_beam = sum(levenshtein(t, b) for t, b in zip(truth, beam)) / sum(map(len, truth[:n]))
    assert abs(next(v for k, v in r["cer"].items() if k.startswith("beam")) - cer_beam) < 1e-12
    assert [t for t, _, _ in r["judged"]] == r["texts"]
    for text, read, c in r["judged"]:
        assert abs(c - levenshtein(text, read) / len(text)) < 1e-12
    assert figures(nb) >= 4


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebooks_hold_a_full_run(name):
    """Readers see results without running anything: every code cell of the committed file ran, in order,
    in the full budget, without an error, and the figures are there."""
    nb = nbformat.read(os.path.join(NOTEBOOKS, name), as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    assert not any(o.output_type == "error" for c in code for o in c.outputs)
    params = "".join(o.get("text", "") for o in code[0].outputs)
    assert params.startswith("budget: full"), params
    assert figures(nb) >= 3
