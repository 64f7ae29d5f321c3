"""lnrnn/compiling.py's source stamp in numbers: (name, mtime, size) of each file, so an edit is seen when only
one of the two moves. File systems keep mtimes in coarse ticks (a few milliseconds, or whole seconds), and
tools restore them (an archive unpacked, a checkout keeping times): an edit within one tick, or under a
restored mtime, changes the size alone; a rewrite of the same length changes the mtime alone."""
import os

from lnrnn import compiling


def test_the_stamp_sees_a_new_size_under_the_same_mtime(tmp_path):
    f = tmp_path / "helper.py"
    f.write_text("EPS = 1e-5\n")
    st = os.stat(f)
    before = compiling.sources_stamp([str(f)])
    assert before == (("helper.py", st.st_mtime, len("EPS = 1e-5\n")),)
    f.write_text("EPS = 1e-05\n")                       # one byte longer
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))     # the same mtime as before
    assert os.stat(f).st_mtime == st.st_mtime
    assert compiling.sources_stamp([str(f)]) != before


def test_the_stamp_sees_a_new_mtime_at_the_same_size(tmp_path):
    f = tmp_path / "helper.py"
    f.write_text("EPS = 1e-5\n")
    st = os.stat(f)
    before = compiling.sources_stamp([str(f)])
    f.write_text("EPS = 3e-5\n")                         # same length
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    assert compiling.sources_stamp([str(f)]) != before
    assert compiling.sources_stamp([str(f)])[0][2] == before[0][2]
