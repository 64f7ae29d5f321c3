"""The learning curves' title against its limit: a title of 160 characters is drawn whole, a longer one
is cut to 160 characters, the last of them an ellipsis."""
from lnrnn.training.plot import Curves, learning_curve_figure

RECS = [{"epoch": 1, "step": 10, "train_loss": 2.0, "val_loss": 1.5},
        {"epoch": 2, "step": 20, "train_loss": 1.0, "val_loss": 0.5}]


def title_of(title):
    return learning_curve_figure([Curves("a", RECS)], title=title)._suptitle.get_text()


def test_a_long_title_is_cut_to_160_characters():
    exact = "t" * 160
    assert title_of(exact) == exact
    long = "".join(chr(ord("a") + k % 26) for k in range(200))
    got = title_of(long)
    assert len(got) == 160 and got == long[:159] + "\u2026"
    assert title_of(long[:161]) == long[:159] + "\u2026"
