"""``lnrnn sample``: a mixture-density checkpoint drawn to a picture, reproducibly, and clear errors."""
import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.cli import main
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes, strokes_of


def mdn_run(folder, cell="ln-lstm", head=None, skip=True):
    c, n = {"ln-lstm": ("lstm", "ln"), "bn-lstm": ("lstm", "bn"), "lstm": ("lstm", "none")}[cell]
    head = head or {"kind": "mdn", "components": 3, "per_step": True, "scale": [2.0, 3.0]}
    m = build_model(dict(cell=c, norm=n, input_size=3, hidden_size=5, num_layers=2, dtype="float32",
                         forget_bias=1.0, head=head, skip=skip), seed=1)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 0, "task": {"task": "strokes-synthetic"},
                                          "train": {"cell": cell}})
    return m


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("cell", ["ln-lstm", "bn-lstm"])
def test_sample_writes_pictures_reproducibly(tmp_path, cell):
    mdn_run(tmp_path / "run", cell)
    for ext in ("png", "svg", "pdf"):
        r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 25, "--count", 3, "--seed", 4,
                   "--out", tmp_path / f"s.{ext}", "--npz", tmp_path / f"s_{ext}.npz")
        assert r.exit_code == 0, r.output + repr(r.exception)
        assert (tmp_path / f"s.{ext}").stat().st_size > 500
    a, b = (np.load(tmp_path / f"s_{e}.npz") for e in ("png", "svg"))
    np.testing.assert_array_equal(a["points"], b["points"])     # same seed, same samples
    assert list(a["lengths"]) == [25, 25, 25] and set(np.unique(a["points"][:, 2])) <= {0.0, 1.0}
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 25, "--count", 3, "--seed", 5,
               "--out", tmp_path / "t.png", "--npz", tmp_path / "t.npz")
    assert r.exit_code == 0 and not np.array_equal(np.load(tmp_path / "t.npz")["points"], a["points"])
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "s.svg").read_text().lstrip().startswith(("<?xml", "<svg"))


def test_samples_follow_the_model_step_by_step(tmp_path):
    """The sampler feeds each drawn point back: replaying its points through model.step gives the same
    outputs, so the same draws (the bias narrows them), and the data scale is applied."""
    m = mdn_run(tmp_path / "run", "ln-lstm")
    lines = sample_strokes(m, 12, count=2, bias=0.0, seed=7)
    again = sample_strokes(m, 12, count=2, bias=0.0, seed=7)
    np.testing.assert_array_equal(lines[0], again[0])
    rng = np.random.default_rng(7)
    x, state = np.zeros((2, 3), np.float32), None
    for t in range(12):
        o, state = m.step(x, state, t=t)
        p = m.head.sample(o, rng, 0.0)
        np.testing.assert_allclose(lines[0][t], p[0] * [2.0, 3.0, 1.0], rtol=1e-12)
        x = p.astype(np.float32)
    wide = np.std(np.concatenate(sample_strokes(m, 200, 2, 0.0, 1))[:, :2])
    tight = np.std(np.concatenate(sample_strokes(m, 200, 2, 3.0, 1))[:, :2])
    assert tight < wide


def test_strokes_split_at_pen_lifts():
    pts = np.array([[1, 0, 0], [1, 0, 1], [0, 5, 0], [1, 0, 0], [1, 1, 1]], float)
    paths = strokes_of(pts)
    assert [len(p) for p in paths] == [2, 3]
    np.testing.assert_array_equal(paths[1][0], [2, 5])


def test_sample_errors_are_one_line(tmp_path):
    mdn_run(tmp_path / "clf", head={"kind": "classifier", "outputs": 3, "per_step": False})
    mdn_run(tmp_path / "run")
    for args, words in ((("--checkpoint", tmp_path / "clf"), "does not generate sequences"),
                        (("--checkpoint", tmp_path / "run", "--out", tmp_path / "x.jpg"), "--out must end in"),
                        (("--checkpoint", tmp_path / "run", "--steps", 0), "--steps must be at least 1"),
                        (("--checkpoint", tmp_path / "nothing"), "no checkpoint at")):
        r = invoke("sample", *args)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        assert words in r.output


def test_a_density_run_that_does_not_fit_its_task_is_refused_in_one_sentence(tmp_path):
    """evaluate_run on a mixture-density checkpoint whose head is not the one its task needs (3 components
    where strokes-synthetic asks for its own number): a CheckpointError naming both heads, no KeyError."""
    import lnrnn
    from lnrnn.errors import CheckpointError
    mdn_run(tmp_path / "run")
    with pytest.raises(CheckpointError, match=r"mdn head with 3 components, but strokes-synthetic .* mdn head with \d+ "
                                              r"components"):
        lnrnn.evaluate_run(tmp_path / "run")


def test_a_loaded_run_prints_in_one_short_line(tmp_path):
    import lnrnn
    mdn_run(tmp_path / "run")
    run = lnrnn.load_run(tmp_path / "run")
    text = repr(run)
    assert len(text) < 200 and "\n" not in text and "ln-lstm" in text and "hidden 5" in text, text


def test_the_api_is_listed_by_dir():
    import lnrnn
    assert {"load_run", "evaluate_run", "predict", "sample_run", "export_run", "kernel_threads"} <= set(dir(lnrnn))
