"""load_checkpoint's refusals word for word, each naming the file it means (the description, not the folder
given), with nothing written; format_seconds against the definition h:mm:ss (3725 s = 1 h + 2 min + 5 s)."""
import json
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import DESCRIPTION, load_checkpoint, save_checkpoint
from lnrnn.training.progress import format_seconds


def refusal(path):
    before = sorted(os.listdir(path))
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(str(path))
    assert sorted(os.listdir(path)) == before
    return str(e.value)


def test_an_empty_folder_names_the_description_it_expected(tmp_path):
    d = tmp_path / "empty"
    d.mkdir()
    assert refusal(d) == (f"no checkpoint at {d} (expected {d / DESCRIPTION}); train one with "
                          "`lnrnn train --out DIR` first.")


def test_another_programs_description_is_named_not_its_folder(tmp_path):
    d = tmp_path / "other"
    d.mkdir()
    (d / DESCRIPTION).write_text(json.dumps({"format": "something-else", "version": 1}))
    assert refusal(d) == f"{d / DESCRIPTION} is not an lnrnn checkpoint description."


def test_a_listing_of_an_array_the_file_lacks_names_the_description(tmp_path):
    """The description lists 'extra' besides 'w'; the arrays file (its digest intact) holds only 'w'."""
    d = tmp_path / "run"
    save_checkpoint(str(d), {"w": np.arange(3.0)}, {"step": 10, "model": {"hidden_size": 4}})
    meta = json.loads((d / DESCRIPTION).read_text())
    meta["arrays"]["extra"] = [[2], "<f8"]
    (d / DESCRIPTION).write_text(json.dumps(meta))
    name = meta["arrays_file"]
    assert name.startswith("checkpoint-000000010-")
    assert refusal(d) == f"checkpoint arrays file {d / name} does not hold the arrays {d / DESCRIPTION} lists."


@pytest.mark.parametrize("s,said", [(0, "0:00"), (59.4, "0:59"), (59.6, "1:00"), (3599, "59:59"), (3600, "1:00:00"),
                                    (3725, "1:02:05"), (7199.6, "2:00:00"), (36061, "10:01:01")])
def test_format_seconds_is_hours_minutes_seconds(s, said):
    r = int(round(s))
    h, m, sec = r // 3600, (r % 3600) // 60, r % 60
    assert said == (f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}")
    assert format_seconds(s) == said
