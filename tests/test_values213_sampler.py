"""lnrnn/sample.py's free draw and its refusals, against what is worked out here. Three steps of a free mixture
model are replayed by hand: the first input is the origin with the pen down (or the given start), each step's
point is Graves's biased mixture drawn from one default_rng(seed) in the sampler's order (a uniform for the
component, two normals, a uniform for the pen), and the next input is the point drawn. The refusals are
checked word for word: a model without text told to leave out what was given (in the caller's names), a prime
file of pickled objects, bad codes with the range of the model's alphabet, a long line of unknown characters
shortened to 60 characters of its repr (two thirds of the kept characters before the ellipsis, one third
after), and a long caption's notes joined by '; '."""
import re
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import CAPTION_CHARS, Written, read_stroke3, sample_strokes, text_inputs, written_label
from test_values162_sampler import free_model, graves_draw
from test_values133_sampler import SCALE

UNIT = np.array([SCALE[0], SCALE[1], 1.0])
CLI = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}


@pytest.mark.parametrize("start", [None, (0.25, -0.5, 1.0)])
def test_three_free_steps_are_the_mixture_drawn_by_hand_with_the_same_seed(start):
    M, count, steps, bias, seed = 3, 4, 3, 0.5, 213
    m = free_model(M)
    assert not m.state_noise
    rng = np.random.default_rng(seed)
    x = np.zeros((count, 3)) if start is None else np.tile(start, (count, 1))
    state, want = None, []
    for t in range(steps):
        o, state = m.step(x, state, t=t)
        p = graves_draw(np.asarray(o, np.float64), M, bias, rng)
        want.append(p)
        x = p
    want = np.stack(want, axis=1) * UNIT                                    # (count,steps,3) data units
    got = sample_strokes(m, steps, count, bias, seed, start=None if start is None else np.array(start))
    assert len(got) == count
    np.testing.assert_allclose(np.stack(got), want, rtol=1e-10, atol=1e-12)


class _Free:
    conditioned = False


@pytest.mark.parametrize("names,lines,strokes,text,left", [
    (None, ["ab"], None, None, "text"),
    (None, [], np.zeros((2, 3)), "ab", "prime_strokes"),
    (CLI, ["ab"], None, None, "--text"),
    (CLI, [], np.zeros((2, 3)), "ab", "--prime-strokes")])
def test_a_model_without_text_says_to_leave_out_what_was_given(names, lines, strokes, text, left):
    kw = {} if names is None else {"names": names}
    want = ("this run was trained without text (it has no attention window): it draws freely and can neither "
            f"write a given text nor be primed; leave out {left}.")
    with pytest.raises(UserError) as e:
        text_inputs(_Free(), None, lines, strokes, text, **kw)
    assert str(e.value) == want


def test_a_prime_file_of_pickled_objects_says_so(tmp_path):
    path = tmp_path / "prime.npy"
    np.save(path, np.array([[1, 2, 0]], dtype=object), allow_pickle=True)
    with pytest.raises(UserError) as e:
        read_stroke3(path, "--prime-strokes")
    assert str(e.value) == (f"--prime-strokes {path} cannot be read as stroke-3 (it holds pickled objects, "
                            "which are not read).")


def fake_model(C):
    head = SimpleNamespace(kind="mdn", sample=None)
    return SimpleNamespace(head=head, conditioned=True, stack=SimpleNamespace(C=C), dtype=np.float64)


@pytest.mark.parametrize("bad", [np.array([1, 7]), np.array([-1]), np.array([], np.int64), np.array([1.0])])
def test_bad_codes_are_refused_with_the_alphabets_range(bad):
    want = ("line 2 of text must be a non-empty 1-D array of codes in [0, 7) (the model's alphabet); encode a "
            "str with lnrnn.data.strokes.encode_text.")
    with pytest.raises(UserError) as e:
        sample_strokes(fake_model(7), 3, 2, text=[np.array([0, 6]), bad])
    assert str(e.value) == want


def cut(text, limit):
    """repr(text) when it fits in limit, else its first and last characters about an ellipsis, limit long."""
    r = repr(text)
    if len(r) <= limit:
        return r
    keep = limit - 3
    tail = keep // 3
    return r[:keep - tail] + "\u2026" + r[len(r) - tail:]


def test_a_long_line_of_unknown_characters_is_quoted_shortened():
    line = "ab\u00e9" * 30                                                  # repr 92 characters
    short = cut(line, 60)
    assert short.startswith("'ab") and short.endswith("\u00e9'") and len(short) == 58
    want = (f"--text line 1 ({short}) has characters that the run's training texts never used: "
            "'\u00e9'; the run can write only these: ' abc'.")
    with pytest.raises(UserError) as e:
        text_inputs(SimpleNamespace(conditioned=True), {"alphabet": "\ufffd abc"}, [line], names=CLI)
    assert str(e.value) == want


def test_a_long_caption_keeps_its_notes_joined_by_semicolons():
    text = "ab" * 60
    row = Written(points=np.zeros((7, 3)), phi=np.zeros((7, 2)), capped=True, text=text, chars=[],
                  codes=np.zeros(2, np.int64))
    tail = " (120 characters; stopped at the 7-point cap)"
    got = written_label(row)
    assert got == cut(text, CAPTION_CHARS - len(tail)) + tail
    assert re.fullmatch(r"'(ab)+a?\u2026b?(ab)+'" + re.escape(tail), got)
