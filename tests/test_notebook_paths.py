"""The committed outputs of the notebooks show paths relative to the repository, never the absolute paths
of the machine that ran them."""
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
ABSOLUTE = re.compile(r"(?<![\w.~-])/(?:work|home|root|tmp|Users|mnt|scratch|data|private|var)/[\w.-]+")


def output_text(nb):
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            yield "".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_outputs_hold_no_absolute_paths(path):
    found = [m.group(0) for text in output_text(json.loads(path.read_text())) for m in ABSOLUTE.finditer(text)]
    assert not found, f"{path.name} shows absolute paths in its outputs: {found[:3]}"


def test_the_pattern_finds_what_it_should():
    assert ABSOLUTE.search("mnist from /home/user/shared/data/mnist read") and not ABSOLUTE.search("../shared/data/mnist")
