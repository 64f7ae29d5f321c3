"""--keep's copies (lnrnn/training/checkpoint.py keep_past) are the update-* folders of RUN/checkpoints: files there
of such a name (a user's archive of a copy, a note) are neither counted nor deleted, and the newest --keep copies
stay whole beside them; a copy removed by hand after keep_past listed it and before it deletes it (the listing's
isdir answering yes, then the folder going) is no error, and the newest copies are kept. Checkpoints are
test_values259_checkpoint's (save, assert_holds)."""
import os
import shutil

import lnrnn.training.checkpoint as ckpt
from lnrnn.training.checkpoint import PAST_DIR, keep_past
from test_values259_checkpoint import assert_holds, save

STRAY = {"update-000000005.tar": b"an archive", "update-notes": b"a note"}


def _copies(run):
    return sorted(d for d in os.listdir(run / PAST_DIR) if os.path.isdir(run / PAST_DIR / d))


def test_files_named_like_copies_are_neither_counted_nor_deleted(tmp_path):
    run = tmp_path / "run"
    save(run, 6)
    keep_past(str(run), 2)
    for name, body in STRAY.items():
        (run / PAST_DIR / name).write_bytes(body)
    for s in (7, 8, 9):
        save(run, s)
        keep_past(str(run), 2)
        assert _copies(run) == [f"update-{k:09d}" for k in (s - 1, s)]
    for s in (8, 9):
        assert_holds(run / PAST_DIR / f"update-{s:09d}", s)
    for name, body in STRAY.items():
        assert (run / PAST_DIR / name).read_bytes() == body


def test_a_copy_removed_by_hand_meanwhile_is_no_error(tmp_path, monkeypatch):
    run = tmp_path / "run"
    for s in (3, 4):
        save(run, s)
        keep_past(str(run), 2)
    gone = str(run / PAST_DIR / "update-000000003")
    isdir = os.path.isdir

    def listed_then_removed(path):
        answer = isdir(path)
        if str(path) == gone and answer:
            shutil.rmtree(gone)                        # the user's hand, between the listing and the deletion
        return answer
    monkeypatch.setattr(ckpt.os.path, "isdir", listed_then_removed)
    save(run, 5)
    keep_past(str(run), 2)
    monkeypatch.undo()
    assert _copies(run) == ["update-000000004", "update-000000005"]
    assert_holds(run / PAST_DIR / "update-000000005", 5)
