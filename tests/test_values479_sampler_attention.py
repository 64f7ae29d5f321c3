"""The attention image of lnrnn/sample.py (written_figure with attention): a line of up to 30 characters labels
them at 7 points, a longer one at 5, so that the labels of a long line do not run into each other. The image is
test_values238_sampler's attention_axis."""
import pytest

from test_values238_sampler import attention_axis


@pytest.mark.parametrize("U, size", [(1, 7), (30, 7), (31, 5), (90, 5)])
def test_the_character_labels_are_7_points_up_to_30_characters_then_5(U, size):
    with attention_axis(U) as (chars, ax):
        labels = ax.get_yticklabels()
        assert [t.get_text() for t in labels] == chars
        assert {t.get_fontsize() for t in labels} == {size}
