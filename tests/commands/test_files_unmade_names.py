"""lnrnn/files.py's early check of the names an output file would make (unmade_names, through check_output_file):
the file system's name limit counted in bytes, not characters, at its edge (255 bytes on Linux's file systems);
a link to nowhere where a folder would be made refused, where the file itself would be written not (the write
replaces the link, as it replaces any file there); names of existing folders never counted."""
import os

import pytest

from lnrnn.files import check_output_file, write_output_file
from test_values229_files_predict_io_paths import refusal
from test_values_output_paths import here, listing  # noqa: F401  (here: a.txt and sub/ in a cwd)

LIMIT = 255


@pytest.fixture
def limit(here):  # noqa: F811
    if os.pathconf(".", "PC_NAME_MAX") != LIMIT:
        pytest.skip("a file system whose names are not limited to 255 bytes")
    return LIMIT


def test_a_name_of_exactly_the_limit_passes_and_is_written(here, limit):  # noqa: F811
    name = "n" * (limit - 4) + ".csv"
    path = os.path.join("new", name)
    assert check_output_file(path) == path
    write_output_file(path, lambda f: f.write(b"x"))
    assert open(path, "rb").read() == b"x"


def test_the_limit_counts_bytes_not_characters(here, limit):  # noqa: F811
    name = "\u00e9" * 128          # 128 characters, 256 bytes in UTF-8
    path = os.path.join(name, "p.csv")
    before = listing(here)
    assert refusal(check_output_file, path) == (f"--out {path} has a name of 256 bytes ({name[:16]}...), longer than the 255 the file "
                            "system allows; choose a shorter --out.")
    assert listing(here) == before
    ok = "\u00e9" * 127 + "p"      # 255 bytes
    assert check_output_file(os.path.join(ok, "p.csv")) == os.path.join(ok, "p.csv")


def test_an_existing_folders_long_name_is_not_counted_and_the_option_is_named(here, limit):  # noqa: F811
    """Names above the nearest existing folder are the file system's own business: only the names to be made
    are counted; the refusal names the option it was given."""
    path = os.path.join("sub", "x" * 300 + ".npz")
    assert refusal(check_output_file, path, "--npz") == (f"--npz {path} has a name of 304 bytes ({'x' * 16}...), longer than the 255 the file "
                            "system allows; choose a shorter --npz.")


def test_a_link_to_nowhere_as_the_file_itself_is_written_over(here):  # noqa: F811
    os.symlink("nowhere", "out.csv")
    assert check_output_file("out.csv") == "out.csv"
    write_output_file("out.csv", lambda f: f.write(b"y"))
    assert not os.path.islink("out.csv") and open("out.csv", "rb").read() == b"y"


def test_a_link_to_nowhere_deeper_down_is_named(here):  # noqa: F811
    os.makedirs(os.path.join("sub", "a"))
    os.symlink("gone", os.path.join("sub", "a", "b"))
    path = os.path.join("sub", "a", "b", "c", "p.csv")
    assert refusal(check_output_file, path, "--judge-out") == (f"{os.path.join(os.getcwd(), 'sub', 'a', 'b')} is a link to gone, which does not exist, "
                            f"so --judge-out {path} cannot be written there; choose another --judge-out.")
