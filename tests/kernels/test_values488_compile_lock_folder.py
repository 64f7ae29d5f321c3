"""compile_once (lnrnn/compiling.py) takes a lock file for every (function, signature) it compiles, whether the
cache folder beside which it lies exists already (the second kernel of a module, every warm cache) or is made
here; where the folder cannot be made (a file in its place) it compiles without a lock, as Numba does. The waits
are recorded around the real ``exclusive``, and each lock file is left where compile_lock_path says."""
from lnrnn import compiling


def recorded(monkeypatch):
    """The (path, wait) of every exclusive() compile_once enters, the real lock taken each time."""
    waits, real = [], compiling.exclusive

    def recording(path, wait_s):
        waits.append((path, wait_s))
        return real(path, wait_s)
    monkeypatch.setattr(compiling, "exclusive", recording)
    return waits


def test_each_signature_takes_its_lock_in_a_folder_that_exists(monkeypatch, tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "window.forward-3-numpy.py311.nbi").write_bytes(b"")      # a warm cache: the folder has files
    locks = {sig: str(folder / f"window.forward-3-numpy.py311.{sig}.lock") for sig in ("f32", "f64", "i64")}
    monkeypatch.setattr(compiling, "compile_lock_path", lambda disp, sig: locks[sig])
    waits = recorded(monkeypatch)
    shared = compiling.compile_once(lambda disp, sig: (disp, sig))
    assert [shared("disp", sig) for sig in locks] == [("disp", sig) for sig in locks]
    assert waits == [(locks[sig], compiling.COMPILE_WAIT_S) for sig in locks]
    assert all(p.is_file() for p in folder.iterdir())                 # lock files, not folders of their names
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["window.forward-3-numpy.py311.nbi"] + [f"window.forward-3-numpy.py311.{sig}.lock" for sig in locks])


def test_a_folder_that_cannot_be_made_compiles_without_a_lock(monkeypatch, tmp_path):
    (tmp_path / "cache").write_bytes(b"not a folder")
    monkeypatch.setattr(compiling, "compile_lock_path", lambda disp, sig: str(tmp_path / "cache" / "k.lock"))
    waits = recorded(monkeypatch)
    shared = compiling.compile_once(lambda disp, sig: ("compiled", sig))
    assert shared("disp", "f32") == ("compiled", "f32") and waits == []
    assert (tmp_path / "cache").read_bytes() == b"not a folder"
