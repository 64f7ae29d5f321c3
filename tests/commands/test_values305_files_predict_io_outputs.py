"""Output paths and prediction inputs/tables (lnrnn/files.py, lnrnn/predict_io.py, lnrnn sample's early checks),
each refusal word for word with nothing written: a link to nowhere and a name past NAME_MAX refused naming the
option the caller gave (--npz, --judge-out), not --out; a writer's full disk refused naming --judge-out with
'nothing was written' and no temporary file left; write_error's probe made inside the folder asked about (a
file there is not a folder: ENOTDIR); a folder given to read_inputs expanded to its IDX images files in name
order, pixels / 255 by hand; a classifier table's probability column the chosen class's probability written
out here; sample's prime past the 20,000-point cap refused naming the cap, and --npz under another suffix
naming --npz's own path, both before any run is loaded."""
import errno
import os

import numpy as np
import pytest

from lnrnn.api import Predictions
from lnrnn.data.idx import write_idx
from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_error, write_output_file
from lnrnn.predict_io import read_inputs, write_predictions
from test_cli import invoke


def test_a_link_to_nowhere_is_refused_naming_the_option_given(tmp_path):
    os.symlink("gone", tmp_path / "ln")
    text = str(tmp_path / "ln" / "pts.npz")
    with pytest.raises(UserError) as e:
        check_output_file(text, "--npz")
    assert str(e.value) == (f"{tmp_path / 'ln'} is a link to gone, which does not exist, so --npz {text} cannot be "
                            "written there; choose another --npz.")
    assert os.listdir(tmp_path) == ["ln"]


def test_a_name_of_256_bytes_is_refused_naming_the_option_given(tmp_path):
    assert os.pathconf(tmp_path, "PC_NAME_MAX") == 255
    name = "a" * 252 + ".csv"                                    # 256 bytes: one past Linux's NAME_MAX
    text = str(tmp_path / name)
    with pytest.raises(UserError) as e:
        check_output_file(text, "--judge-out")
    assert str(e.value) == (f"--judge-out {text} has a name of 256 bytes ({'a' * 16}...), longer than the 255 the "
                            "file system allows; choose a shorter --judge-out.")
    assert check_output_file(str(tmp_path / ("a" * 251 + ".csv")), "--judge-out")   # 255 bytes: taken
    assert os.listdir(tmp_path) == []


def test_a_full_disk_is_refused_naming_the_option_and_leaves_nothing(tmp_path):
    def full(f):
        f.write(b"{")
        raise OSError(errno.ENOSPC, "No space left on device")

    path = tmp_path / "sub" / "judged.json"
    with pytest.raises(UserError) as e:
        write_output_file(path, full, "--judge-out")
    assert str(e.value) == (f"cannot write --judge-out {path} (No space left on device): free some space there or "
                            "choose another --judge-out; nothing was written.")
    assert os.listdir(tmp_path / "sub") == []                    # the temporary file is gone, no judged.json


def test_write_error_probes_inside_the_folder_it_is_given(tmp_path):
    assert write_error(str(tmp_path)) is None
    (tmp_path / "plain").write_text("x")
    e = write_error(str(tmp_path / "plain"))                     # a file, not a folder: nothing can be made in it
    assert isinstance(e, OSError) and e.errno == errno.ENOTDIR
    e = write_error(str(tmp_path / "missing"))
    assert isinstance(e, OSError) and e.errno == errno.ENOENT
    assert sorted(os.listdir(tmp_path)) == ["plain"]


def test_a_folder_input_is_its_idx_files_in_name_order(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    a = np.array([[[0, 255], [51, 102]]], np.uint8)             # 1 image of 2x2
    b = np.array([[[255, 0], [0, 0]], [[3, 6], [9, 12]]], np.uint8)
    write_idx(folder / "b-images-idx3-ubyte", b)
    write_idx(folder / "a-images-idx3-ubyte", a)
    (folder / "notes.txt").write_text("not images")
    x, where = read_inputs([folder], "mnist", 1)
    want = np.array([[0, 255, 51, 102], [255, 0, 0, 0], [3, 6, 9, 12]], np.float64) / 255   # pixel by pixel
    np.testing.assert_allclose(x[:, :, 0], want, rtol=1e-6)
    assert where == [(str(folder / "a-images-idx3-ubyte"), 0, 1), (str(folder / "b-images-idx3-ubyte"), 1, 2)]


def test_a_classifier_table_holds_the_chosen_class_probability(tmp_path):
    probs = np.array([[0.2, 0.8, 0.0], [0.7, 0.1, 0.2], [0.25, 0.25, 0.5]])
    p = Predictions(np.array([1, 0, 2]), probs)
    assert write_predictions(tmp_path / "p.csv", p) == 3
    assert (tmp_path / "p.csv").read_text() == "index,class,probability\n0,1,0.8\n1,0,0.7\n2,2,0.5\n"
    assert write_predictions(tmp_path / "p.npy", p) == 3
    t = np.load(tmp_path / "p.npy", allow_pickle=False)
    assert t.dtype.names == ("index", "class", "probability")
    np.testing.assert_array_equal(t["probability"], [0.8, 0.7, 0.5])


def _sample_refused(args, tmp_path):
    r = invoke("sample", "--checkpoint", tmp_path / "no-run", *args)
    assert r.exit_code != 0 and isinstance(r.exception, SystemExit), r.output
    errors = [line for line in r.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, r.stderr
    return errors[0][len("Error: "):]


def test_a_prime_past_the_cap_is_refused_naming_the_cap(tmp_path):
    prime = tmp_path / "prime.npy"
    np.save(prime, np.zeros((20_001, 3)))                         # one point past SAMPLE_MAX_STEPS, 20,000
    msg = _sample_refused(["--prime-strokes", prime, "--prime-text", "hi", "--out", tmp_path / "s.png"], tmp_path)
    assert msg == (f"--prime-strokes {prime} holds 20,001 points, more than the 20,000 a prime may have (the model "
                   "reads each as one step); give a shorter prime (a line or two of handwriting), or pass --no-cap "
                   "to read it anyway.")
    assert sorted(os.listdir(tmp_path)) == ["prime.npy"]


def test_npz_under_another_suffix_is_refused_naming_its_own_path(tmp_path):
    npz = tmp_path / "points.dat"
    msg = _sample_refused(["--out", tmp_path / "s.png", "--npz", npz], tmp_path)
    assert msg == (f"--npz {npz} would hold an .npz archive under another name (lnrnn read and numpy tell the kind "
                   f"by the suffix); name it {tmp_path / 'points'}.npz.")
    assert os.listdir(tmp_path) == []
