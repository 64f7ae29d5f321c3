"""Round 325 (tests/mutants/mutants_values325.py): what names a cached kernel on disk, by value. _file_base against
Numba's own get_filename_base and against the name written out here (module stem, qualname without '<' '>', the
disambiguator, py<major><minor>); kernel_sources of a package tree whose kernels/, kernels/cpu/ and kernels/cuda/
hold different files; drop_unreadable_index on an absent index (nothing deleted), another Numba version's (kept),
and a garbled one (deleted)."""
import os
import sys
from types import SimpleNamespace

from numba.core import caching

from lnrnn import compiling
from test_values254_compiling import _index


def test_file_base_is_the_name_numba_gives():
    def inner(x):
        return x
    base = compiling._file_base(inner, "d7-mkl-rgemm")
    hand = ("test_values325_compiling.test_file_base_is_the_name_numba_gives.locals.inner-d7-mkl-rgemm"
            f".py{sys.version_info.major}{sys.version_info.minor}{getattr(sys, 'abiflags', '')}")
    assert base == hand
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    numbas = impl.get_filename_base(SimpleNamespace(locator=SimpleNamespace(get_disambiguator=lambda: "d7-mkl-rgemm")),
                                    f"test_values325_compiling.{inner.__qualname__}", getattr(sys, "abiflags", ""))
    assert base == numbas


def test_kernel_sources_take_each_folders_own_files(tmp_path):
    for rel in ("kernels/lstm.py", "kernels/notes.md", "kernels/cpu/blas.py", "kernels/cpu/rgemm.py",
                "kernels/cuda/graphs_cuda.py", "config.py", "compiling.py", "cli.py", "data/tasks.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x = 1\n")
    want = [os.path.join(str(tmp_path), *rel.split("/")) for rel in
            ("compiling.py", "config.py", "kernels/cpu/blas.py", "kernels/cpu/rgemm.py",
             "kernels/cuda/graphs_cuda.py", "kernels/lstm.py")]
    assert compiling.kernel_sources(str(tmp_path) + os.sep) == want


def test_absent_stale_and_garbled_indexes(tmp_path):
    stamp = ((1700000000.0, 321), (("lstm.py", 1.0, 10),))
    base = "lstm.forward-42-cpu_rgemm.py311"
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert os.listdir(tmp_path) == []
    _index(str(tmp_path), base, stamp, ("sig",), "lstm.forward.nbc", None, version="0.0.1")
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is False
    assert os.listdir(tmp_path) == [base + ".nbi"]
    (tmp_path / (base + ".nbi")).write_bytes(b"\x80\x04garbled")
    assert compiling.drop_unreadable_index(str(tmp_path), base, stamp) is True
    assert os.listdir(tmp_path) == []


def test_exclusive_yields_whether_it_holds_the_lock(tmp_path):
    path = str(tmp_path / "f.lock")
    with compiling.exclusive(path, 1.0) as held:
        assert held is True
        with compiling.exclusive(path, 0.1) as second:   # another open of the file: its wait runs out
            assert second is False
    with compiling.exclusive(path, 0.1) as again:        # released at the end of the block
        assert again is True
    assert os.listdir(tmp_path) == ["f.lock"]
