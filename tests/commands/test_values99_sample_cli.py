"""``lnrnn sample`` against the sampler called here: --steps, --count, --bias and --seed reach it (the .npz
holds exactly sample_strokes' rows of the loaded model, as float32, with their lengths); a line that never
passes its text stops at --steps and the message names that cap; refusals are one line, exit non-zero, in the
options' names (--text line 1, --prime-strokes), with nothing written."""
import numpy as np
from click.testing import CliRunner

from lnrnn.api import load_run
from lnrnn.cli import main
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes
from lnrnn.training.checkpoint import save_checkpoint

ALPHABET = "\ufffd abcde"
HEAD = {"kind": "mdn", "components": 2, "per_step": True, "scale": [2.0, 3.0]}


def save_run(folder, m, text=False):
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    meta = {"model": m.config, "step": 0, "task": {"task": "strokes"}, "train": {"cell": "ln-lstm"}}
    if text:
        meta["text"] = {"alphabet": ALPHABET, "unknown": 0, "lines": 1}
    save_checkpoint(str(folder), arrays, meta)
    return str(folder)


def free_run(folder):
    return save_run(folder, build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1,
                                             dtype="float64", forget_bias=1.0, head=HEAD), seed=3))


def text_run(folder, kappa_bias=-20.0):
    """A synthesis run whose window (k_hat bias ``kappa_bias``: -20 never moves) stays on the first character."""
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True, head=HEAD), seed=2)
    m.stack.layers[0].params["bp"][4:] = kappa_bias
    return save_run(folder, m, text=True)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(r, *words):
    assert r.exit_code != 0, r.output
    assert isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_steps_count_bias_and_seed_reach_the_sampler(tmp_path):
    run = free_run(tmp_path / "run")
    r = invoke("sample", "--checkpoint", run, "--steps", 5, "--count", 2, "--bias", 0.7, "--seed", 9,
               "--out", tmp_path / "s.png", "--npz", tmp_path / "s.npz", "--quiet")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert "Wrote 2 samples of 5 points" in r.output
    got = np.load(tmp_path / "s.npz")
    np.testing.assert_array_equal(got["lengths"], [5, 5])
    want = sample_strokes(load_run(run).model, 5, 2, bias=0.7, seed=9)
    np.testing.assert_array_equal(got["points"], np.concatenate(want).astype(np.float32))


def test_a_line_that_never_passes_its_text_stops_at_the_steps_cap(tmp_path):
    run = text_run(tmp_path / "run")
    r = invoke("sample", "--checkpoint", run, "--text", "abc", "--steps", 3, "--out", tmp_path / "s.png",
               "--npz", tmp_path / "s.npz", "--quiet")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert "line 1 reached the 3-point cap first" in r.output, r.output
    np.testing.assert_array_equal(np.load(tmp_path / "s.npz")["lengths"], [3])


def test_refusals_name_the_options_and_write_nothing(tmp_path):
    run = text_run(tmp_path / "run")
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", run, "--text", "az", "--steps", 3, "--out", out)
    one_line_error(r, "--text line 1", "'z'")
    free = free_run(tmp_path / "free")
    np.save(tmp_path / "p.npy", np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 1.0]]))
    r = invoke("sample", "--checkpoint", free, "--prime-strokes", tmp_path / "p.npy", "--prime-text", "ab",
               "--steps", 3, "--out", out)
    one_line_error(r, "leave out --prime-strokes")
    assert not out.exists()
