"""lnrnn/sample.py outside its step loop, against values written out here. A model whose head draws
nothing (a classifier, a regression) is refused before any step, word for word. A prime file read as a .npy
(a 6-byte magic) gives its points back as float64; an --npz file of two lines gives its first line only;
bad points in a file are refused naming the option and the file. A run without a text record is a corrupt
checkpoint, word for word. strokes_of keeps a stroke of one point (a dot between two pen lifts), its
positions summed by hand. A caption of 1,234 characters counts them with a thousands separator and is cut to
leave room for all its notes (the prime's words, the count and the cap), 98 characters in all. The attention
image labels every character up to 119 characters and every second one from 120 (at most about 60 labels).

The caption's cut is test_values213_sampler's cut (repr's two ends about an ellipsis, written there)."""
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import build_model
from lnrnn.sample import Written, _pyplot, read_stroke3, sample_strokes, strokes_of, text_inputs, written_figure, \
    written_label
from test_values213_sampler import cut

POINTS = np.array([[1.5, -2.0, 0.0], [0.25, 0.5, 1.0], [3.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [2.0, 2.0, 1.0]])


@pytest.mark.parametrize("head", [{"kind": "classifier", "outputs": 3}, {"kind": "regression", "outputs": 2}])
def test_a_head_that_draws_nothing_is_refused_before_any_step(head):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head), seed=0)
    with pytest.raises(UserError) as e:
        sample_strokes(m, 5, 2, seed=1)
    assert str(e.value) == (f"this model's head ({head['kind']}) does not generate sequences; sampling needs a "
                            "mixture density model (a strokes task).")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_a_npy_prime_gives_its_points_as_float64(tmp_path, dtype):
    path = tmp_path / "prime.npy"
    pts = np.array([[1, -2, 0], [3, 0, 1], [0, 4, 0]], dtype)
    np.save(path, pts)
    got = read_stroke3(path, "--prime-strokes")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [[1.0, -2.0, 0.0], [3.0, 0.0, 1.0], [0.0, 4.0, 0.0]])


def test_an_npz_of_two_lines_gives_its_first_line(tmp_path):
    path = tmp_path / "two.npz"
    np.savez(path, points=POINTS, lengths=np.array([2, 3]))
    np.testing.assert_array_equal(read_stroke3(path), POINTS[:2])
    np.savez(path, points=POINTS)                                  # no lengths: every point is the line
    np.testing.assert_array_equal(read_stroke3(path), POINTS)


def test_bad_points_in_a_file_are_refused_naming_the_option_and_the_file(tmp_path):
    path = tmp_path / "pen.npy"
    bad = POINTS.copy()
    bad[3, 2] = 2.0
    np.save(path, bad)
    with pytest.raises(UserError) as e:
        read_stroke3(path, "--prime-strokes")
    assert str(e.value) == (f"the points of --prime-strokes {path} have pen values other than 0 and 1 (column 3 of "
                            "stroke-3: 1 where the pen lifts after the point).")


def test_a_run_without_a_text_record_is_a_corrupt_checkpoint():
    for record in (None, {}):
        with pytest.raises(CheckpointError) as e:
            text_inputs(SimpleNamespace(conditioned=True), record, ["ab"], source="run writer-3")
        assert str(e.value) == ("run writer-3 reads a text, but its checkpoint does not record the alphabet of its "
                                "training texts; it is corrupt.")


def test_a_dot_between_two_pen_lifts_is_a_stroke_of_its_own():
    # positions from the origin (1, 1): (2.5, -1), (2.75, -0.5) lift | (5.75, 0.5) lift | (4.75, 0.5), (6.75, 2.5)
    paths = strokes_of(np.array([[1.5, -2.0, 0.0], [0.25, 0.5, 1.0], [3.0, 1.0, 1.0], [-1.0, 0.0, 0.0],
                                 [2.0, 2.0, 0.0]]), origin=(1.0, 1.0))
    assert len(paths) == 3
    np.testing.assert_array_equal(paths[0], [[2.5, -1.0], [2.75, -0.5]])
    np.testing.assert_array_equal(paths[1], [[5.75, 0.5]])
    np.testing.assert_array_equal(paths[2], [[4.75, 0.5], [6.75, 2.5]])
    # a lone first point lifted, and a last point lifted: two dots and a stroke, nothing empty after the end
    paths = strokes_of(np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [2.0, 0.0, 1.0]]))
    assert [p.tolist() for p in paths] == [[[1.0, 0.0]], [[2.0, 1.0], [2.0, 2.0]], [[4.0, 2.0]]]


def row_of(text, capped, prime):
    return Written(points=np.zeros((9, 3)), phi=np.zeros((9, 2)), capped=capped, text=text, chars=[],
                   codes=np.zeros(2, np.int64), prime=prime)


@pytest.mark.parametrize("capped, primed", [(False, False), (True, True)])
def test_a_caption_of_1234_characters_counts_them_and_leaves_room_for_its_notes(capped, primed):
    text = "ab" * 617                                                # 1,234 characters
    prime = np.zeros((2, 3)) if primed else None
    notes = "1,234 characters" + ("; stopped at the 9-point cap" if capped else "")
    tail = (" after the prime (grey)" if primed else "") + f" ({notes})"
    got = written_label(row_of(text, capped, prime))
    assert got == cut(text, 100 - len(tail)) + tail
    assert got.endswith(tail) and len(got) == 98                     # cut keeps limit - 2 characters


@contextmanager
def attention_axis(U):
    """(chars, the character axis of the attention image) of one written line of U characters, a-z over again."""
    chars = [chr(ord("a") + u % 26) for u in range(U)]
    row = Written(points=np.array([[0.1, 0.2, 0.0], [0.3, 0.1, 1.0]]), phi=np.full((2, U), 0.1), capped=False,
                  text="".join(chars), chars=chars, codes=np.arange(U))
    plt = _pyplot()
    fig = written_figure(plt, [row], attention=True)
    try:
        yield chars, next(a for a in fig.axes if a.get_ylabel() == "character")
    finally:
        plt.close(fig)


@pytest.mark.parametrize("U, every", [(61, 1), (119, 1), (120, 2), (121, 2)])
def test_the_attention_image_labels_every_character_up_to_119(U, every):
    with attention_axis(U) as (chars, ax):
        assert list(ax.get_yticks()) == list(range(0, U, every))
        assert [t.get_text() for t in ax.get_yticklabels()] == chars[::every]
