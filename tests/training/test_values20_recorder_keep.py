"""--keep N against its definition on a run that saves at every update: no past checkpoint at all with
--keep 0 (the default: not even an emptied checkpoints folder), and with --keep 2 exactly the newest two
updates' copies, each a whole checkpoint of its update."""
import json
import os

from test_cli import TINY, assert_ok, invoke


def test_keep_zero_keeps_no_past_checkpoint_and_keep_two_the_newest_two(tmp_path):
    none = tmp_path / "none"
    assert_ok(invoke("train", *TINY, "--save-every", 1, "--out", none))
    assert "checkpoints" not in os.listdir(none)
    two = tmp_path / "two"
    assert_ok(invoke("train", *TINY, "--save-every", 1, "--keep", 2, "--out", two))
    last = json.load(open(two / "checkpoint.json"))["step"]
    kept = sorted(os.listdir(two / "checkpoints"))
    assert kept == [f"update-{s:09d}" for s in (last - 1, last)]
    for name, step in zip(kept, (last - 1, last)):
        assert json.load(open(two / "checkpoints" / name / "checkpoint.json"))["step"] == step
