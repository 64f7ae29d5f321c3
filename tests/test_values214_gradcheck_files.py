"""numeric_grad (lnrnn/gradcheck.py) against polynomials whose truncation error is known in closed form, and the
output-file functions (lnrnn/files.py) refusing outputs word for word with nothing written.

For f = sum(a x^5 + b x^3) the central difference of step h gives, per element,
    order 2:  a (5x^4 + 10x^2 h^2 + h^4) + b (3x^2 + h^2)
    order 4:  a (5x^4 - 4h^4) + b 3x^2                   (the five-point stencil is exact up to x^4)
worked out from the binomial expansions here, not from the code."""
import errno
import os

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, nearest_existing, space_hint, write_output_file
from lnrnn.gradcheck import numeric_grad

A, B, H = 0.5, -2.0, 0.1


def _poly(arr):
    return lambda: float(np.sum(A * arr ** 5 + B * arr ** 3))


def _matrix():
    return np.array([[0.3, -1.2, 2.0], [0.7, -0.4, 1.5]])                  # (2,3), not square


def test_order_4_truncation_is_minus_4_h4_on_x5():
    x = _matrix()
    kept = x.copy()
    g = numeric_grad(_poly(x), x, eps=H, order=4)
    assert g.shape == x.shape
    np.testing.assert_allclose(g, A * (5 * kept ** 4 - 4 * H ** 4) + B * 3 * kept ** 2, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(x, kept)                                 # every element put back


def test_order_2_truncation_keeps_its_h2_terms():
    x = _matrix()
    kept = x.copy()
    g = numeric_grad(_poly(x), x, eps=H, order=2)
    want = A * (5 * kept ** 4 + 10 * kept ** 2 * H ** 2 + H ** 4) + B * (3 * kept ** 2 + H ** 2)
    np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(x, kept)


def test_chosen_flat_indices_come_back_in_the_order_asked():
    x = _matrix()
    kept = x.copy()
    g = numeric_grad(_poly(x), x, eps=H, idx=[5, 0, 3])
    full = A * (5 * kept ** 4 - 4 * H ** 4) + B * 3 * kept ** 2
    np.testing.assert_allclose(g, full.reshape(-1)[[5, 0, 3]], rtol=1e-10)
    np.testing.assert_array_equal(x, kept)


def test_a_transposed_view_is_refused():
    x = np.zeros((2, 3)).T                                                  # flattening it must copy
    with pytest.raises(ValueError) as e:
        numeric_grad(lambda: 0.0, x)
    assert str(e.value) == "numeric_grad needs a contiguous array"


def _refused(path, option="--out"):
    with pytest.raises(UserError) as e:
        check_output_file(path, option)
    return str(e.value)


def test_going_up_from_a_missing_folder_is_refused(tmp_path):
    text = os.path.join(str(tmp_path), "missing", "..", "x.csv")
    assert _refused(text) == (f"--out {text} goes up ('..') from {os.path.join(str(tmp_path), 'missing')}, which "
                              "does not exist, so it cannot be written there; give the path without that step.")
    assert os.listdir(tmp_path) == []


def test_a_dot_step_is_not_going_up(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert check_output_file(os.path.join(os.curdir, "x.csv")) == os.path.join(os.curdir, "x.csv")
    assert os.listdir(tmp_path) == []


def test_a_file_where_the_folder_should_be_is_refused(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("keep")
    assert nearest_existing(str(f)) == str(f)
    assert nearest_existing(str(f / "a" / "b")) == str(f)
    text = str(f / "x.csv")
    assert _refused(text, "--npz") == (f"{f} is a file, not a folder, so --npz {text} cannot be written there; "
                                       "choose another --npz.")
    assert sorted(os.listdir(tmp_path)) == ["f.txt"] and f.read_text() == "keep"


def test_a_trailing_separator_and_an_existing_folder_are_refused(tmp_path):
    text = str(tmp_path / "out") + os.sep
    assert _refused(text) == f"--out {text!r} names a folder; give a file name."
    assert _refused(str(tmp_path)) == f"--out {tmp_path} is a folder; give a file name inside it."
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("code, hint", [(errno.ENOSPC, "free some space there"),
                                        (errno.EACCES, "make the folder writable"),
                                        (errno.EIO, "check that file system")])
def test_a_failed_write_says_why_and_leaves_nothing(tmp_path, code, hint):
    def write(f):
        f.write(b"partial")
        raise OSError(code, os.strerror(code))

    path = str(tmp_path / "p.csv")
    with pytest.raises(UserError) as e:
        write_output_file(path, write)
    assert str(e.value) == (f"cannot write --out {path} ({os.strerror(code)}): {hint} or choose another --out; "
                            "nothing was written.")
    assert os.listdir(tmp_path) == []
    assert space_hint(OSError(code, "x")) == hint
