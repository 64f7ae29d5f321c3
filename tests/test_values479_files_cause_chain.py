"""lnrnn/files.py's _os_error_within: the OSError that an exception is or that its chain holds, whether the chain
links by __cause__ (raise ... from) or only by __context__ (raised while handling it, as matplotlib's PDF writer
does on a full disk), at any depth; None for a chain without one, a chain that loops included. Through
atomic_write, a writer that hides a full disk behind a context-only error reports the disk's error naming the
path and leaves nothing behind."""
import errno
import os

import pytest

from lnrnn.files import _os_error_within, atomic_write


def chained(link, depth, root):
    """An exception whose chain, ``depth`` links long, ends at ``root``; each link by 'cause' or 'context'."""
    e = root
    for k in range(depth):
        outer = ValueError(f"link {k}")
        if link == "cause":
            outer.__cause__ = e
        else:
            outer.__context__ = e
        e = outer
    return e


@pytest.mark.parametrize("link", ["cause", "context"])
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_the_os_error_is_found_along_either_link_at_any_depth(link, depth):
    disk = OSError(errno.ENOSPC, "No space left on device")
    assert _os_error_within(chained(link, depth, disk)) is disk
    assert _os_error_within(chained(link, depth, KeyError("k"))) is None


def test_a_cause_is_followed_before_a_context_and_a_loop_ends():
    disk, other = OSError(errno.ENOSPC, "full"), OSError(errno.EACCES, "denied")
    e = ValueError("outer")
    e.__cause__, e.__context__ = disk, other
    assert _os_error_within(e) is disk
    a, b = ValueError("a"), ValueError("b")
    a.__context__, b.__context__ = b, a
    assert _os_error_within(a) is None


def test_a_writer_hiding_a_full_disk_behind_a_context_reports_the_disk(tmp_path):
    def write(f):
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError:
            raise RuntimeError("the writer's own clean-up failed")   # the OSError is its __context__ only
    path = tmp_path / "out.pdf"
    with pytest.raises(OSError) as info:
        atomic_write(path, write)
    assert (info.value.errno, info.value.filename) == (errno.ENOSPC, str(path))
    assert os.listdir(tmp_path) == []
