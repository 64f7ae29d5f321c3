"""lnrnn read (lnrnn/commands/read.py) refuses --batch-size 0 naming its own value, not --beam's, in one
'Error:' line with a non-zero exit, before any run is loaded, and writes nothing."""
import os

from test_values277_cli import _refused


def test_read_refuses_batch_size_zero_naming_it(tmp_path):
    errors = _refused(["read", "--checkpoint", "nowhere", "--input", "x.npy", "--beam", "3", "--batch-size", "0",
                       "--out", "t.txt"], tmp_path)
    assert errors == ["Error: --batch-size must be at least 1, not 0."]
    assert os.listdir(tmp_path) == []
