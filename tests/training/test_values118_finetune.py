"""Fine-tuning's refusal of a shape setting, read as one whole sentence: the source's value, this run's, and
the fix that gives the source's value back (never this run's own, which is what failed)."""
from types import SimpleNamespace

import pytest

from lnrnn.errors import UserError
from lnrnn.training import finetune

TRAIN = {"cell": "ln-lstm", "hidden": 8, "layers": 2, "bidirectional": False, "dtype": "float32"}


def _source():
    return finetune.Source("runs/src", {"train": dict(TRAIN), "model": {}}, {"param/W": None})


@pytest.mark.parametrize("name,ours,theirs_said,ours_said", [
    ("hidden", 16, "8", "16"), ("layers", 1, "2", "1"), ("cell", "bn-lstm", "ln-lstm", "bn-lstm"),
    ("bidirectional", True, "off", "on"), ("dtype", "float64", "float32", "float64"),
])
def test_a_differing_setting_is_refused_in_one_sentence_naming_the_sources_value(name, ours, theirs_said, ours_said):
    finetune.check_settings(_source(), SimpleNamespace(**TRAIN))          # the same shape: accepted
    with pytest.raises(UserError) as e:
        finetune.check_settings(_source(), SimpleNamespace(**{**TRAIN, name: ours}))
    assert str(e.value) == (f"--init-from runs/src: its model has --{name} {theirs_said}, this run {ours_said}; "
                            f"the shapes must match: give --{name} {theirs_said}, or start without --init-from.")
    assert "\n" not in str(e.value)
