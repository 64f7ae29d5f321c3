"""lnrnn/sample.py's refusals, word for word, against the sentences the sampler documents: a half prime in
Python's names (prime_strokes and prime_text), a text whose number of lines is not count (the lines given,
then count), a synthesis model sampled without text (pass text=), a model without a window given a text (it
has no attention window), and a line that is bytes rather than str (refused by its type's name before any
character is looked up)."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import check_prime_pair, sample_strokes, text_inputs
from test_values213_sampler import fake_model


def message(call):
    with pytest.raises(UserError) as e:
        call()
    return str(e.value)


@pytest.mark.parametrize("strokes,text,given,needed", [(np.zeros((2, 3)), None, "prime_strokes", "prime_text"),
                                                      (None, "ab", "prime_text", "prime_strokes")])
def test_a_half_prime_is_refused_in_pythons_names(strokes, text, given, needed):
    assert message(lambda: check_prime_pair(strokes, text)) == (
        f"{given} needs {needed}: a prime is handwriting and the text it writes; give both or neither.")


def test_a_text_of_two_lines_with_count_three_gives_both_numbers():
    m = fake_model(5)
    got = message(lambda: sample_strokes(m, 4, 3, text=[np.array([1, 2]), np.array([3])]))
    assert got == "text holds 2 lines but count is 3: each line is one sample."


def test_a_synthesis_model_without_text_is_asked_for_text():
    got = message(lambda: sample_strokes(fake_model(5), 4, 1))
    assert got == ("this model writes a given text (it reads each line through an attention window): pass text=, "
                   "one array of codes per line.")


def test_a_model_without_a_window_given_a_text_says_it_has_no_window():
    m = fake_model(5)
    m.conditioned = False
    got = message(lambda: sample_strokes(m, 4, 1, text=[np.array([1, 2])]))
    assert got == ("this model was trained without text (it has no attention window): it draws freely and can "
                   "neither write a given text nor be primed with one; sample it without them.")


@pytest.mark.parametrize("line", [b"ab", 12])
def test_a_line_that_is_not_a_str_is_refused_by_its_type(line):
    m = SimpleNamespace(conditioned=True)
    got = message(lambda: text_inputs(m, {"alphabet": "\ufffd abc"}, ["ab", line]))
    assert got == f"text line 2 must be a str, not {type(line).__name__}."
