"""lnrnn/sample.py, twentieth pass (round 378 of the planted bugs, tests/mutants/mutants_values378.py): what a
text-writing sample is given and how its rows are drawn, each against values written out by hand.

read_stroke3: a .npy of integers read as float64, a .npz's first line by its lengths, and every refusal word
for word in the option's and the file's names (the sentences of the module): a wrong suffix, no such file, not
a NumPy file, an .npz with no 'points' array, lengths that do not split the points, and bad points (pen 2, NaN,
a wrong shape) named as "the points of <option> <file>". text_inputs, with stand-in models (only
``conditioned`` and the head's scale are read): a model without a window takes nothing and refuses lines or a
prime naming what to leave out; a writer's lines encoded by hand (code = index in the alphabet); a prime's
points divided by the head's scale and its codes those of its text and a space (no space where the alphabet
has none); one unknown character refused by name, two listed once each in order; an empty or non-str line,
custom names and source, word for word. The pictures, through matplotlib's Agg backend: strokes_figure's pen
paths (absolute positions split after each lift, by hand), its titles, size and y direction; written_figure's
grey prime from the origin and the line in ink from where the prime ends, the y direction, and the attention
image (phi transposed, one row per character, the prime's characters' labels grey). Besides: three written
rows of a stand-in window model replayed through lnrnn/reference.py's window (test_values133_sampler.check_row)
with a prime and without an alphabet (chars as codes, text joined by spaces)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import Written, _pyplot, read_stroke3, sample_strokes, strokes_figure, text_inputs, written_figure
from test_values133_sampler import ALPHABET, UNIT, check_row, codes, text_model

PEN = "(column 3 of stroke-3: 1 where the pen lifts after the point)."


# ---------------------------------------------------------------- read_stroke3

def test_a_npy_of_integers_and_the_first_line_of_a_npz_read_as_float64(tmp_path):
    a = tmp_path / "ints.npy"
    np.save(a, np.array([[3, -4, 0], [1, 2, 1]], np.int32))
    got = read_stroke3(a)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [[3.0, -4.0, 0.0], [1.0, 2.0, 1.0]])
    b = tmp_path / "lines.npz"
    pts = np.array([[0.5, 0.25, 0.0], [1.0, -1.0, 0.0], [2.0, 2.0, 1.0], [9.0, 9.0, 1.0]])
    np.savez(b, points=pts, lengths=np.array([3, 1]))
    np.testing.assert_array_equal(read_stroke3(b), pts[:3])
    c = tmp_path / "one.npz"
    np.savez(c, points=pts)                                          # no lengths: every point
    np.testing.assert_array_equal(read_stroke3(c), pts)


def test_bad_points_in_a_file_are_named_as_the_points_of_the_option_and_the_file(tmp_path):
    cases = {"pen2.npy": (np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 2.0]]), "have pen values other than 0 and 1 " + PEN),
             "nan.npy": (np.array([[0.0, np.nan, 0.0]]), "hold NaN or infinite values; a stroke-3 array is finite."),
             "flat.npy": (np.array([1.0, 2.0, 0.0]), "must be an (N,3) stroke-3 array (dx, dy, pen) of at least one "
                                                      "point, not shape (3,).")}
    for name, (a, tail) in cases.items():
        path = tmp_path / name
        np.save(path, a)
        for option in ("prime_strokes", "--prime-strokes"):
            with pytest.raises(UserError) as e:
                read_stroke3(path, option)
            assert str(e.value) == f"the points of {option} {path} {tail}"


def test_each_refusal_of_a_file_word_for_word(tmp_path):
    txt = tmp_path / "p.txt"
    txt.write_text("1 2 0\n")
    missing = tmp_path / "gone.npy"
    junk = tmp_path / "junk.npy"
    junk.write_bytes(b"not numpy at all")
    nopoints = tmp_path / "nopoints.npz"
    np.savez(nopoints, xy=np.zeros((2, 3)))
    badlen = tmp_path / "badlen.npz"
    np.savez(badlen, points=np.zeros((2, 3)), lengths=np.array([3]))
    want = {txt: f"--ps {txt} must be a .npz (with a points array, as --npz writes) or a .npy stroke-3 file.",
            missing: f"--ps {missing}: no such file.",
            junk: f"--ps {junk} cannot be read as stroke-3 (it is not a NumPy file).",
            nopoints: f"--ps {nopoints} holds no 'points' array (an (N,3) stroke-3 array, as --npz writes).",
            badlen: f"--ps {badlen} has a 'lengths' array that does not split its points into lines."}
    for path, message in want.items():
        with pytest.raises(UserError) as e:
            read_stroke3(path, "--ps")
        assert str(e.value) == message


# ---------------------------------------------------------------- text_inputs

def stand_in(conditioned, scale=(2.0, 4.0), alphabet_size=len(ALPHABET)):
    return SimpleNamespace(conditioned=conditioned, head=SimpleNamespace(scale=scale),
                           config={"alphabet_size": alphabet_size})


def test_a_model_without_a_window_takes_nothing_and_names_what_to_leave_out():
    free = stand_in(False)
    assert text_inputs(free, None, None) == (None, None, None)
    assert text_inputs(free, {"alphabet": ALPHABET}, []) == (None, None, None)
    start = "this run was trained without text (it has no attention window): it draws freely and can neither " \
            "write a given text nor be primed; leave out "
    with pytest.raises(UserError) as e:
        text_inputs(free, None, ["ab"])
    assert str(e.value) == start + "text."
    with pytest.raises(UserError) as e:
        text_inputs(free, None, None, np.zeros((2, 3)), "ab")
    assert str(e.value) == start + "prime_strokes."
    names = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}
    with pytest.raises(UserError) as e:
        text_inputs(free, None, None, np.zeros((2, 3)), "ab", names=names, source="run7")
    assert str(e.value) == start.replace("this run", "run7") + "--prime-strokes."


def test_a_writers_lines_and_prime_encoded_by_hand():
    m = stand_in(True, scale=(2.0, 4.0))
    prime_pts = np.array([[2.0, 8.0, 0.0], [-1.0, 1.0, 1.0], [0.5, -2.0, 0.0]])       # data units
    got, prime, alphabet = text_inputs(m, {"alphabet": ALPHABET}, ["bad", "e e"], prime_pts, "ca")
    assert alphabet == ALPHABET
    # ALPHABET = "\ufffd abcde": ' ' 1, a 2, b 3, c 4, d 5, e 6
    assert [g.tolist() for g in got] == [[3, 2, 5], [6, 1, 6]]
    assert all(g.dtype == np.int64 for g in got)
    pts, pcodes = prime
    np.testing.assert_array_equal(pts, [[1.0, 2.0, 0.0], [-0.5, 0.25, 1.0], [0.25, -0.5, 0.0]])
    assert pcodes.tolist() == [4, 2, 1]                                                # "ca" and a space
    # an alphabet without a space: the prime's codes are its text's alone
    got, prime, _ = text_inputs(stand_in(True, alphabet_size=3), {"alphabet": "?xy"}, ["yx"], prime_pts, "xx")
    assert got[0].tolist() == [2, 1] and prime[1].tolist() == [1, 1]
    got, prime, _ = text_inputs(m, {"alphabet": ALPHABET}, ["a"])
    assert prime is None and got[0].tolist() == [2]


def test_unknown_characters_empty_and_non_str_lines_refused_word_for_word():
    m = stand_in(True)
    rec = {"alphabet": ALPHABET}
    known = repr(ALPHABET[1:])
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, ["ab", "abz"])
    assert str(e.value) == ("text line 2 ('abz') has characters that the run's training texts never used: 'z'; "
                            f"the run can write only these: {known}.")
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, ["xaQx"])
    assert str(e.value) == ("text line 1 ('xaQx') has characters that the run's training texts never used: 'x', "
                            f"'Q'; the run can write only these: {known}.")
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, ["ab"], np.zeros((2, 3)), "a!")
    assert str(e.value) == ("prime_text ('a!') has characters that the run's training texts never used: '!'; "
                            f"the run can write only these: {known}.")
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, ["ab", ""])
    assert str(e.value) == "text line 2 is empty; give at least one character to write."
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, [b"ab"])
    assert str(e.value) == "text line 1 must be a str, not bytes."
    with pytest.raises(UserError) as e:
        text_inputs(m, rec, [], source="run7", names={"text": "--text", "prime_strokes": "--ps", "prime_text": "--pt"})
    assert str(e.value) == ("run7 writes a given text (it reads each line through an attention window): give the "
                            "lines to write with --text.")


# ---------------------------------------------------------------- the pictures

def lines_of(ax):
    return [ln.get_xydata().tolist() for ln in ax.lines]


def test_strokes_figure_draws_each_stroke_where_the_pen_went():
    a = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 2.0, 0.0], [2.0, 0.0, 1.0]])
    b = np.array([[0.0, -1.0, 0.0], [3.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
    plt = _pyplot()
    for y_down in (False, True):
        fig = strokes_figure(plt, [a, b], "free", y_down=y_down, labels=["first", "second"])
        try:
            axes = fig.axes
            assert len(axes) == 2
            # a: (1,0) (2,1) | lift | (2,3) (4,3); b: (0,-1) (3,-1) (3,0)
            assert lines_of(axes[0]) == [[[1.0, 0.0], [2.0, 1.0]], [[2.0, 3.0], [4.0, 3.0]]]
            assert lines_of(axes[1]) == [[[0.0, -1.0], [3.0, -1.0], [3.0, 0.0]]]
            assert [ax.get_title(loc="left") for ax in axes] == ["first", "second"]
            assert fig._suptitle.get_text() == "free"
            np.testing.assert_allclose(fig.get_size_inches(), (10.0, 1.6 * 2 + 0.5))
            for ax in axes:
                assert ax.yaxis_inverted() == y_down and not ax.xaxis_inverted()
                assert list(ax.get_xticks()) == [] and list(ax.get_yticks()) == []
        finally:
            plt.close(fig)


def row(points, phi, chars, prime=None, prime_chars=0, capped=False, text="ab"):
    return Written(points=np.asarray(points, float), phi=np.asarray(phi, float), capped=capped, text=text,
                   chars=list(chars), codes=np.arange(len(chars)), prime=prime, prime_chars=prime_chars)


def test_written_figure_inks_the_line_from_where_the_grey_prime_ends():
    prime = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])                 # (1,0) (1,1), ends at (1,1)
    a = row([[2.0, 0.0, 0.0], [0.0, -1.0, 1.0], [1.0, 1.0, 0.0]],         # from (1,1): (3,1) (3,0) | (4,1)
            np.arange(12.0).reshape(3, 4) / 12, "ca b", prime=prime, prime_chars=2)
    b = row([[0.5, 0.5, 0.0], [0.5, 0.0, 1.0]], [[0.2, 0.8], [0.6, 0.4]], "ab")
    plt = _pyplot()
    for y_down in (False, True):
        fig = written_figure(plt, [a, b], "written", attention=True, y_down=y_down)
        try:
            ink = [ax for ax in fig.axes if ax.lines]
            assert len(ink) == 2
            got = [(ln.get_xydata().tolist(), ln.get_color()) for ln in ink[0].lines]
            assert got == [([[1.0, 0.0], [1.0, 1.0]], "#a0a0a0"),
                           ([[3.0, 1.0], [3.0, 0.0]], "#1a1a1a"), ([[4.0, 1.0]], "#1a1a1a")]
            assert lines_of(ink[1]) == [[[0.5, 0.5], [1.0, 0.5]]]
            for ax in ink:
                assert ax.yaxis_inverted() == y_down and not ax.xaxis_inverted()
            assert fig._suptitle.get_text() == "written"
            maps = [ax for ax in fig.axes if ax.get_ylabel() == "character"]
            assert len(maps) == 2
            for ax, r in zip(maps, (a, b)):
                im = ax.images[0]
                np.testing.assert_array_equal(np.asarray(im.get_array()), r.phi.T)    # characters down
                N, U = r.phi.shape
                assert tuple(im.get_extent()) == (0.5, N + 0.5, U - 0.5, -0.5)
                assert ax.get_xlabel() == "point"
            labels = maps[0].get_yticklabels()
            assert [t.get_text() for t in labels] == ["c", "a", "\u2423", "b"]
            assert [t.get_color() for t in labels[:2]] == ["#909090"] * 2
            assert all(t.get_color() != "#909090" for t in labels[2:])
        finally:
            plt.close(fig)


# ---------------------------------------------------------------- written rows against the reference

def test_three_primed_rows_without_an_alphabet_are_the_references():
    m = text_model()
    pre = np.array([[0.3, -0.2, 0.0], [0.1, 0.4, 1.0], [-0.5, 0.2, 0.0]])            # normalized
    prime = (pre, codes("b ")[0])
    lines = codes("ca", "e", "dab")
    rows = sample_strokes(m, 12, 3, 0.7, 21, text=lines, prime=prime)
    assert len(rows) == 3
    for r, c in zip(rows, lines):
        check_row(m, r, c, None, 12, prime=prime)
        assert r.text == " ".join(str(k) for k in c)
        assert r.chars == [str(k) for k in np.concatenate([prime[1], c])]
        assert r.prime_chars == 2
        np.testing.assert_array_equal(r.prime, pre * UNIT)
