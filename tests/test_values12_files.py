"""lnrnn.files' output check on a name that is a folder holding files (not only an empty one): refused before
any work, in one sentence, and nothing in it touched."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_output_file


@pytest.mark.parametrize("inside", [[], ["a.png"], ["a.png", "b"]])
def test_a_name_that_is_a_folder_is_refused_whatever_it_holds(tmp_path, inside):
    folder = tmp_path / "pics"
    folder.mkdir()
    for name in inside:
        (folder / name).write_text("keep")
    for path in (str(folder), os.path.relpath(folder)):
        with pytest.raises(UserError, match="is a folder") as e:
            check_output_file(path, "--out")
        assert "\n" not in str(e.value)
        with pytest.raises(UserError, match="is a folder"):
            write_output_file(path, lambda f: f.write(b"x"))
    assert sorted(os.listdir(folder)) == sorted(inside)
