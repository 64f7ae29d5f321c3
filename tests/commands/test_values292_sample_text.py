"""What a synthesis sample is given, refused word for word (round 292 of the planted bugs,
tests/mutants/mutants_values292.py): a line that is not a str names its type by its bare name; a line with a
character outside the run's alphabet is quoted cut to 60 characters ('abc…xyz': repr's first 38 and last 19
around an ellipsis, keep = 57), while a repr of exactly 60 characters is quoted whole."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import text_inputs
from test_values52_sampler import ALPHABET

RUN = SimpleNamespace(conditioned=True)
ONLY = repr(ALPHABET[1:])


def refusal(lines, **kw):
    with pytest.raises(UserError) as e:
        text_inputs(RUN, {"alphabet": ALPHABET}, lines, **kw)
    return str(e.value)


@pytest.mark.parametrize("bad, name", [(b"ab", "bytes"), (7, "int"), (("a", "b"), "tuple")])
def test_a_line_not_a_str_is_refused_by_its_types_name(bad, name):
    assert refusal(["ab", bad]) == f"text line 2 must be a str, not {name}."


def test_a_prime_text_not_a_str_is_refused_by_its_types_name():
    got = refusal(["ab"], prime_strokes=np.zeros((2, 3)), prime_text=["ab"])
    assert got == "prime_text must be a str, not list."


def test_a_long_line_with_a_stray_character_is_quoted_cut_to_60():
    line = "abcde " * 12 + "xy"                 # 74 characters, repr 76 > 60
    r = repr(line)
    assert len(r) == 76
    cut = r[:38] + "\u2026" + r[76 - 19:]          # keep = 60 - 3 = 57: 57 - 19 first, 19 last
    assert len(cut) == 58
    assert refusal([line]) == (f"text line 1 ({cut}) has characters that the run's training texts never used: "
                               f"'x', 'y'; the run can write only these: {ONLY}.")


def test_a_line_whose_repr_is_exactly_60_is_quoted_whole():
    line = "a" * 57 + "z"                       # repr 60
    assert refusal([line]) == (f"text line 1 ({line!r}) has characters that the run's training texts never "
                               f"used: 'z'; the run can write only these: {ONLY}.")
