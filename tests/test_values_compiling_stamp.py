"""lnrnn/compiling.py's source stamp in numbers: (name, mtime, size) of each file, so an edit is seen when only
one of the two moves. File systems keep mtimes in coarse ticks (a few milliseconds, or whole seconds), and
tools restore them (an archive unpacked, a checkout keeping times): an edit within one tick, or under a
restored mtime, changes the size alone; a rewrite of the same length changes the mtime alone. The stamped files
are every module under lnrnn/kernels, config.py and compiling.py."""
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


def test_the_stamped_files_are_every_kernel_module_config_and_compiling():
    """kernel_sources against a walk of lnrnn/kernels: every .py below it (the cpu/ and cuda/ machinery that
    kernels compile in as well), then config.py and compiling.py; nothing else."""
    package = os.path.dirname(compiling.__file__)
    walked = {os.path.join(d, f) for d, dirs, files in os.walk(os.path.join(package, "kernels"))
              for f in files if f.endswith(".py") and "__pycache__" not in d}
    want = walked | {os.path.join(package, "config.py"), os.path.join(package, "compiling.py")}
    got = compiling.kernel_sources()
    assert len(got) == len(set(got)) and set(got) == want, sorted(set(got) ^ want)
    assert any(os.sep + "cuda" + os.sep in p for p in got) and any(os.sep + "cpu" + os.sep in p for p in got)
