"""The prime of a text-writing sample in and out of data units, against their definition: ``text_inputs``
divides the prime's dx by the head's x scale and dy by its y scale (a head whose two scales differ, so a swap
shows), and reads a stroke-3 file whose suffix is in capitals as the same file in lower case."""
import numpy as np
import pytest

from lnrnn.model.models import build_model
from lnrnn.sample import read_stroke3, text_inputs
from test_sample_text import ALPHABET, CONFIG, SCALE

RECORD = {"alphabet": ALPHABET, "unknown": 0, "lines": 1}
PRIME = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [-3.0, 0.5, 1.0], [4.0, -6.0, 0.0]])


def test_the_prime_is_divided_by_each_axis_own_scale():
    assert SCALE[0] != SCALE[1]
    m = build_model(CONFIG, seed=1)
    codes, prime, alphabet = text_inputs(m, RECORD, ["ab"], PRIME, "ca")
    pts, pcodes = prime
    want = np.column_stack([PRIME[:, 0] / SCALE[0], PRIME[:, 1] / SCALE[1], PRIME[:, 2]])
    np.testing.assert_allclose(pts, want, rtol=0, atol=1e-15)
    assert alphabet == ALPHABET and [list(c) for c in codes] == [[1, 2]]
    assert list(pcodes) == [ALPHABET.index(c) for c in "ca"]      # no space in this alphabet: nothing between


@pytest.mark.parametrize("name", ["line.npy", "LINE.NPY", "Line.Npy", "line.NPZ"])
def test_a_prime_file_suffix_in_any_case(tmp_path, name):
    path = tmp_path / name
    with open(path, "wb") as f:
        if name.lower().endswith(".npz"):
            np.savez(f, points=PRIME)
        else:
            np.save(f, PRIME)
    np.testing.assert_array_equal(read_stroke3(str(path)), PRIME)


@pytest.mark.parametrize("name", ["s.PNG", "s.Svg", "s.pdf"])
def test_the_sample_command_takes_a_picture_suffix_in_any_case(tmp_path, name):
    """The --out check comes before the run is read: a missing run is the error, not the suffix."""
    from click.testing import CliRunner

    from lnrnn.cli import main
    r = CliRunner().invoke(main, ["sample", "--checkpoint", str(tmp_path / "none"), "--steps", "5",
                                  "--out", str(tmp_path / name)])
    assert r.exit_code != 0 and "--out must end in" not in r.output, r.output
    assert "no checkpoint" in r.output, r.output


def test_the_sample_command_refuses_another_suffix(tmp_path):
    from click.testing import CliRunner

    from lnrnn.cli import main
    r = CliRunner().invoke(main, ["sample", "--checkpoint", str(tmp_path / "none"), "--out", str(tmp_path / "s.gif")])
    assert r.exit_code != 0 and "--out must end in" in r.output, r.output


def test_strokes_of_keeps_a_one_point_stroke():
    """A dot: the pen lifts after a point that follows a lift. Each stroke is the points from one lift to
    the next, by the cumulative sum of the offsets."""
    from lnrnn.sample import strokes_of
    pts = np.array([[0, 0, 0], [1, 0, 1], [2, 2, 1], [1, 0, 0], [1, 1, 1], [0.5, 0.5, 0]], np.float64)
    xy = np.cumsum(pts[:, :2], axis=0)
    got = strokes_of(pts)
    want = [xy[0:2], xy[2:3], xy[3:5], xy[5:6]]
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
