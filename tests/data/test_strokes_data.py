"""Stroke data: stroke-3 helpers, the glitch fix, normalization, StrokeTask batches, and the
four sources (synthetic, IAM-OnDB XML, KanjiVG SVG, .npz/.npy), each bad input a one-line DataError that
names the file. IAM-OnDB and KanjiVG files are written here, in their true formats; no stroke data is
committed. Tests that need the kanjivg package skip without it."""
import importlib.metadata
import os
import time

import numpy as np
import pytest

from lnrnn.data import iamondb, kanjivg, stroke_files
from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError, UserError


def one_line(e):
    msg = str(e.value)
    assert "\n" not in msg and msg.strip()
    return msg


# ---------------------------------------------------------------- stroke-3 helpers

def test_to_stroke3_and_back():
    a = np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 2.0]])       # (3, 2)
    b = np.array([[10.0, -1.0]])                              # a one-point stroke
    c = np.array([[11.0, 0.0], [12.0, 4.0]])
    seq = S.to_stroke3([a + 5, b + 5, c + 5])                 # absolute position does not matter
    assert seq.shape == (6, 3)
    assert seq[:, 2].tolist() == [0, 0, 1, 1, 0, 1]           # lift after each stroke's last point
    assert seq[0, :2].tolist() == [0, 0]
    assert seq[3, :2].tolist() == [7, -3] and seq[5, :2].tolist() == [1, 4]
    back = S.to_strokes(seq)
    assert [len(s) for s in back] == [3, 1, 2]
    for got, want in zip(back, (a, b, c)):
        assert np.allclose(got, want)
    scaled = S.to_strokes(seq, scale=(2.0, 0.5))
    assert np.allclose(scaled[2], c * [2.0, 0.5])
    with pytest.raises(ValueError):
        S.to_stroke3([a, np.zeros((0, 2))])


def drop_reference(seq, threshold):
    """Slow statement of the glitch fix: walk the rows, skip long ones, carry their pen lifts back."""
    out = []
    for i, (dx, dy, pen) in enumerate(seq):
        if i > 0 and np.hypot(dx, dy) > threshold:
            if pen:
                out[-1][2] = 1.0
            continue
        out.append([dx, dy, pen])
    return np.array(out)


def test_drop_long_steps_against_reference():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n = int(rng.integers(2, 40))
        seq = np.column_stack([rng.normal(0, 5, (n, 2)), rng.random(n) < 0.2]).astype(float)
        seq[0, :2] = 0
        seq[-1, 2] = 1
        spikes = rng.random(n) < 0.15
        seq[spikes, :2] += 50
        got, dropped = S.drop_long_steps(seq, 30.0)
        want = drop_reference(seq, 30.0)
        assert np.array_equal(got, want) and dropped == n - len(want)
        assert got[-1, 2] == 1                                # the line still ends with a lift
    same, zero = S.drop_long_steps(seq, 1e9)
    assert zero == 0 and np.array_equal(same, seq)


def test_spike_is_removed_whole():
    pts = np.column_stack([np.arange(10.0), np.zeros(10)])   # a straight line, one unit per step
    pts[4] += [0, 5000]                                       # a sensor spike
    got, dropped = S.drop_long_steps(S.to_stroke3([pts]))
    assert dropped == 2
    assert np.allclose(S.to_strokes(got)[0][:, 1], 0)         # the spike is gone, the line stays flat


def test_offset_scale_skips_each_first_row():
    lines = [S.to_stroke3([np.array([[0, 0], [2, 0], [4, 1]])]), S.to_stroke3([np.array([[9, 9], [9, 10]])])]
    d = np.array([[2, 0], [2, 1], [0, 1]], float)
    assert np.allclose(S.offset_scale(lines), d.std(0))
    flat = [S.to_stroke3([np.array([[0, 0], [1, 0], [2, 0]])])]   # dx constant, dy zero: both degenerate
    assert S.offset_scale(flat) == [1.0, 1.0]


# ---------------------------------------------------------------- the task and its batches

def test_batch_is_next_point_prediction():
    rng = np.random.default_rng(0)
    lines = [S.to_stroke3([rng.normal(0, 3, (n, 2))]) for n in (5, 9, 2, 7)]
    val = [S.to_stroke3([rng.normal(0, 3, (4, 2))]), S.to_stroke3([rng.normal(0, 3, (6, 2))])]
    t = S.make_task({"task": "x"}, "test lines", S.RawSplit(lines), S.RawSplit(val))
    sx, sy = t.scale
    assert t.head == {"kind": "mdn", "components": 20, "per_step": True, "scale": [sx, sy]}
    assert t.input_size == 3 and t.per_step and t.objective == "mdn" and t.steps == 8
    assert t.size("train") == 4 and t.size("val") == 2
    idx = np.array([3, 0, 2, 1])
    for dtype in (np.float32, np.float64):
        x, y, lengths = t.batch("train", idx, dtype)
        assert x.shape == (8, 4, 3) and y.shape == (4, 8, 3) and x.dtype == dtype and y.dtype == dtype
        assert lengths.dtype == np.int64 and lengths.tolist() == [6, 4, 1, 8]
        for b, i in enumerate(idx):
            norm = lines[i] / [sx, sy, 1.0]                   # (N, 3) independently normalized
            L = len(norm) - 1
            assert np.allclose(x[:L, b], norm[:-1], atol=1e-6) and not x[L:, b].any()
            assert np.allclose(y[b, :L], norm[1:], atol=1e-6) and not y[b, L:].any()
    x, y, lengths = t.batch("val", [1])
    assert x.shape == (5, 1, 3) and lengths.tolist() == [5]


def test_statistics_come_from_the_training_split():
    rng = np.random.default_rng(2)
    small = [S.to_stroke3([np.cumsum(rng.normal(0, [2, 3], (20, 2)), 0)]) for _ in range(5)]
    huge = [S.to_stroke3([np.cumsum(rng.normal(0, 100, (20, 2)), 0)]) for _ in range(2)]
    t = S.make_task({"task": "x"}, "test", S.RawSplit(small), S.RawSplit(huge))
    d = np.concatenate([ln[1:, :2] for ln in small])             # training offsets only
    assert np.allclose(t.scale, d.std(0)) and t.scale[0] < 3 < 50 < np.abs(t.line("val", 0)[:, :2]).max() * 20


def test_lines_too_short_are_skipped_and_said():
    lines = [S.to_stroke3([np.zeros((1, 2))]), S.to_stroke3([np.arange(6.0).reshape(3, 2)])]
    t = S.make_task({"task": "x"}, "test", S.RawSplit(lines, ["a", "b"], ["t1", "t2"]), S.RawSplit(lines))
    assert t.size("train") == 1 and "2 lines of fewer than 2 points skipped" in t.description
    assert t.sets["train"].names == ["b"] and t.text("train", 0) == "t2"   # names and texts follow their lines
    with pytest.raises(DataError, match="validation split has no line"):
        S.make_task({"task": "x"}, "test", S.RawSplit(lines), S.RawSplit(lines[:1]))


def test_split_groups():
    groups = [f"f{i // 3}" for i in range(60)]                # 20 groups of 3
    val = S.split_groups(groups)
    assert val.sum() == 6
    assert not {g for g, v in zip(groups, val) if v} & {g for g, v in zip(groups, val) if not v}
    assert np.array_equal(val, S.split_groups(list(reversed(groups)))[::-1])  # by name, not order
    assert S.split_groups(["a", "b"]).sum() == 1
    with pytest.raises(DataError, match="at least two forms"):
        S.split_groups(["a", "a"], what="forms")


# ---------------------------------------------------------------- strokes-synthetic

def test_synthetic_task():
    t = load_task(task_spec("strokes-synthetic", split="120/30"))
    assert t.spec == {"task": "strokes-synthetic", "split": "120/30"}
    assert t.size("train") == 120 and t.size("val") == 30 and t.input_size == 3
    again = load_task(t.spec)
    for w in ("train", "val"):
        assert np.array_equal(again.sets[w].points, t.sets[w].points)
    n = np.diff(t.sets["train"].starts)
    assert n.min() >= S.SYN_POINTS[0] - 2 and n.max() <= S.SYN_POINTS[1]   # a spike's removal takes 2
    pen = t.sets["train"].points[:, 2]
    assert set(np.unique(pen)) == {0.0, 1.0} and (pen[t.sets["train"].starts[1:] - 1] == 1).all()
    assert t.extra["dropped_steps"] == 2 * t.extra["spikes"]
    assert f"{t.extra['dropped_steps']} glitch steps longer than 1000 dropped" in t.description
    assert t.extra["constant_prefix"] and t.head["kind"] == "mdn"
    # normalized offsets have unit std on the training split
    d = np.concatenate([t.line("train", i)[1:, :2] for i in range(t.size("train"))])
    assert np.allclose(d.std(0), 1.0, atol=1e-4)
    # validation lines do not depend on the training count (their normalization does)
    other = load_task(task_spec("strokes-synthetic", split="50/30"))
    assert np.allclose(other.sets["val"].points * [*other.scale, 1], t.sets["val"].points * [*t.scale, 1], atol=1e-3)
    assert other.scale != t.scale
    x, y, lengths = t.batch("train", np.arange(8))
    assert x.shape == (lengths.max(), 8, 3) and y.shape == (8, lengths.max(), 3)


def test_synthetic_default_sizes_and_spikes():
    lines, spikes = S.synthetic_lines(np.random.default_rng(3), 200, glitch_rate=0.5)
    fixed = [S.drop_long_steps(ln) for ln in lines]
    assert 60 < spikes < 140 and sum(d for _, d in fixed) == 2 * spikes
    assert all(S.SYN_POINTS[0] <= len(ln) <= S.SYN_POINTS[1] for ln in lines)
    assert (S.SYN_TRAIN, S.SYN_VAL) == (2000, 200)


def test_task_spec_of_stroke_tasks():
    assert task_spec("strokes-kanjivg") == {"task": "strokes-kanjivg", "charset": "latin"}
    assert task_spec("strokes-kanjivg", charset="kana")["charset"] == "kana"
    assert task_spec("strokes-npz", "f.npz", allow_pickle=True) == {"task": "strokes-npz", "data_dir": "f.npz",
                                                                   "allow_pickle": True}
    with pytest.raises(UserError, match="--charset must be one of latin, kana, kanji"):
        task_spec("strokes-kanjivg", charset="greek")
    with pytest.raises(UserError, match="does not take the option charset"):
        task_spec("strokes-synthetic", charset="latin")
    with pytest.raises(UserError, match="does not take the option allow_pickle"):
        task_spec("strokes", "d", allow_pickle=True)
    with pytest.raises(UserError, match="true or false"):
        task_spec("strokes-npz", "f.npz", allow_pickle="yes")
    with pytest.raises(UserError, match="does not take --steps"):
        task_spec("strokes-synthetic", steps=5)
    with pytest.raises(UserError, match="does not take --split"):
        task_spec("strokes", "d", split="1/1")
    assert task_spec("digits") == {"task": "digits"}       # the other tasks' specs are unchanged


# ---------------------------------------------------------------- IAM-OnDB

def iam_xml(strokes, root="WhiteboardCaptureSession", t0=100.0):
    """A line file in IAM-OnDB's format; strokes: list of (n, 2) integer board points (y down)."""
    parts = ['<?xml version="1.0" encoding="ISO-8859-1"?>', f"<{root}>", "  <WhiteboardDescription>",
             '    <SensorLocation corner="top_left"/>', '    <DiagonallyOppositeCoords x="6512" y="1376"/>',
             '    <VerticallyOppositeCoords x="966" y="1376"/>', '    <HorizontallyOppositeCoords x="6512" y="787"/>',
             "  </WhiteboardDescription>", "  <StrokeSet>"]
    t = t0
    for pts in strokes:
        parts.append(f'    <Stroke colour="black" start_time="{t:.2f}" end_time="{t + 0.01 * len(pts):.2f}">')
        for x, y in pts:
            parts.append(f'      <Point x="{x}" y="{y}" time="{t:.2f}"/>')
            t += 0.01
        parts.append("    </Stroke>")
    parts += ["  </StrokeSet>", f"</{root}>", ""]
    return "\n".join(parts).encode("latin-1")


def write_iam(base, forms=("a01-000u", "a01-000x", "a02-004", "b05-123z", "c01-009"), lines=3, ascii_dir=True,
              glitch=False):
    """A small IAM-OnDB tree: lineStrokes/<aNN>/<aNN-NNN>/<form>-<kk>.xml, ascii/.../<form>.txt.
    Returns {line name: (strokes in board units, text)}."""
    rng = np.random.default_rng(7)
    written = {}
    for form in forms:
        sub = os.path.join(form[:3], form[:7])
        os.makedirs(os.path.join(base, "lineStrokes", sub), exist_ok=True)
        texts = [f"{form} line {k} caf\xe9" for k in range(1, lines + 1)]
        for k in range(1, lines + 1):
            start = rng.integers(500, 1500, 2)
            walks = [np.cumsum(rng.integers(-20, 21, (int(rng.integers(3, 9)), 2)), 0)
                     for _ in range(int(rng.integers(1, 4)))]
            strokes = [start + w + np.array([200, 0]) * j for j, w in enumerate(walks)]
            if glitch and k == 2:
                strokes[0] = np.vstack([strokes[0][:2], strokes[0][1:2] + [0, 9000], strokes[0][2:]])
            name = f"{form}-{k:02d}"
            with open(os.path.join(base, "lineStrokes", sub, name + ".xml"), "wb") as f:
                f.write(iam_xml(strokes))
            written[name] = (strokes, texts[k - 1])
        if ascii_dir:
            os.makedirs(os.path.join(base, "ascii", sub), exist_ok=True)
            body = ("OCR:\n\nsomething typed\nelse\n\nCSR:\n\n" + "\n".join(texts) + "\n\n").encode("latin-1")
            with open(os.path.join(base, "ascii", sub, form + ".txt"), "wb") as f:
                f.write(body)
    return written


def test_iam_reader_and_split(tmp_path):
    written = write_iam(tmp_path, glitch=True)
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.size("train") + t.size("val") == len(written) == 15
    forms = {w: {iamondb.form_of(n + ".xml")[0] for n in t.sets[w].names} for w in ("train", "val")}
    assert forms["val"] and forms["train"] and not forms["train"] & forms["val"]   # no form in both
    assert len(forms["val"]) == 1                              # 10% of 5 forms, at least one
    assert t.extra["dropped_steps"] == 2 * 5 and "10 glitch steps" in t.description  # one spike per form
    for w in ("train", "val"):
        for i, name in enumerate(t.sets[w].names):
            strokes, text = written[name]
            assert t.text(w, i) == text                         # CSR line k belongs to file -k
            if name.endswith("-02"):
                continue                                        # the spiked line, checked below
            got = S.to_strokes(t.line(w, i), t.scale)
            want = [np.asarray(s, float) * [1, -1] for s in strokes]   # y up
            assert [len(s) for s in got] == [len(s) for s in want]
            for g, s in zip(got, want):
                assert np.allclose(g, s - want[0][0], atol=1e-3)
    spiked = t.sets["train"].names.index(next(n for n in t.sets["train"].names if n.endswith("-02")))
    pts = S.to_strokes(t.line("train", spiked), t.scale)[0]
    assert np.abs(pts[:, 1]).max() < 1000                       # the spike is gone
    # --data-dir may be lineStrokes/ itself; ascii/ beside it is still found
    t2 = load_task(task_spec("strokes", str(tmp_path / "lineStrokes")))
    assert np.array_equal(t2.sets["val"].points, t.sets["val"].points) and t2.text("val", 0) == t.text("val", 0)


def test_iam_without_ascii(tmp_path):
    write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=2, ascii_dir=False)
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.size("train") == 2 and t.size("val") == 2 and t.text("train", 0) is None
    assert "0 with transcriptions" in t.description


def write_task_lists(folder, train, val, test=()):
    """IAM-OnDB's task folder as the download has it: trainset.txt, testset_v/t/f.txt, one id per line."""
    os.makedirs(folder, exist_ok=True)
    for name, ids in (("trainset.txt", train), ("testset_v.txt", val), ("testset_t.txt", test),
                      ("testset_f.txt", ())):
        with open(os.path.join(folder, name), "w") as f:
            f.write("".join(i + "\n" for i in ids))


def iam_forms(t):
    return {w: {iamondb.form_of(n + ".xml")[0] for n in t.sets[w].names} for w in ("train", "val")}


def test_iam_official_split(tmp_path):
    """With IAM-OnDB's task lists beside lineStrokes/: train on trainset, validate on testset_v (a line id
    names one line), testset_t's forms unread; without them, the by-form random split (one form here)."""
    write_iam(tmp_path)   # forms a01-000u a01-000x a02-004 b05-123z c01-009, 3 lines each
    write_task_lists(tmp_path / "tasks", ["a01-000u", "a02-004", "a02-004"], ["a01-000x", "b05-123z-02"],
                     test=["c01-009"])
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert iam_forms(t) == {"train": {"a01-000u", "a02-004"}, "val": {"a01-000x", "b05-123z"}}
    assert t.size("train") == 6 and t.size("val") == 4
    assert "b05-123z-02" in t.sets["val"].names and "b05-123z-01" not in t.sets["val"].names
    assert f"IAM-OnDB's split: trainset / testset_v of {tmp_path / 'tasks'}" in t.description
    assert t.extra["split"] == "official" and t.extra["forms"] == 4
    # --data-dir lineStrokes/ itself: tasks/ beside it is found; the lists in --data-dir itself work too
    t2 = load_task(task_spec("strokes", str(tmp_path / "lineStrokes")))
    assert t2.sets["val"].names == t.sets["val"].names and t2.sets["train"].names == t.sets["train"].names
    os.rename(tmp_path / "tasks" / "trainset.txt", tmp_path / "trainset.txt")
    os.rename(tmp_path / "tasks" / "testset_v.txt", tmp_path / "testset_v.txt")
    assert load_task(task_spec("strokes", str(tmp_path))).sets["val"].names == t.sets["val"].names
    os.remove(tmp_path / "trainset.txt")
    os.remove(tmp_path / "testset_v.txt")
    t3 = load_task(task_spec("strokes", str(tmp_path)))   # no lists: 10% of the 5 forms, at random
    assert len(iam_forms(t3)["val"]) == 1 and t3.size("train") + t3.size("val") == 15
    assert t3.extra["split"] == "by form" and "split by form" in t3.description


IAM_LIST_BAD = {
    "missing": (["a01-000u", "z09-999z"], ["a01-000x"],
                "1 of the 2 entries of {d}/trainset.txt (z09-999z) names no line file under"),
    "bad_id": (["a01-000u", "../../etc/passwd"], ["a01-000x"],
               "trainset.txt line 2: '../../etc/passwd' is not an IAM-OnDB form or line id"),
    "both": (["a01-000u", "a02-004"], ["a01-000x", "a02-004-01"],
             "form a02-004 is in both trainset.txt and testset_v.txt of {d}; a form must be in one split only"),
    "empty": ([], ["a01-000x"], "{d}/trainset.txt lists no forms"),
    "one_list": (["a01-000u"], None, "{d} holds IAM-OnDB's trainset.txt but not testset_v.txt"),
}


@pytest.mark.parametrize("case", sorted(IAM_LIST_BAD))
def test_iam_bad_task_lists(tmp_path, case):
    write_iam(tmp_path, forms=("a01-000u", "a01-000x", "a02-004"), lines=1)
    train, val, words = IAM_LIST_BAD[case]
    write_task_lists(tmp_path / "tasks", train, val or [])
    if val is None:
        os.remove(tmp_path / "tasks" / "testset_v.txt")
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes", str(tmp_path)))
    assert words.format(d=tmp_path / "tasks") in one_line(e)


def test_iam_transcription_format(tmp_path):
    p = tmp_path / "a.txt"
    p.write_bytes(b"OCR:\n\nA B\n\nCSR:  \n\n\nFirst line\nSecond line \xe9\n\n")
    assert iamondb.transcriptions(str(p)) == ["First line", "Second line \xe9"]
    p.write_bytes(b"OCR:\n\nonly\n")
    with pytest.raises(DataError, match="no 'CSR:' section"):
        iamondb.transcriptions(str(p))


GOOD = iam_xml([np.array([[1, 2], [3, 4]])])
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<WhiteboardCaptureSession><StrokeSet><Stroke><Point x="&lol9;" y="1"/></Stroke></StrokeSet></WhiteboardCaptureSession>
"""
XXE = b"""<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE WhiteboardCaptureSession [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<WhiteboardCaptureSession><StrokeSet><Stroke><Point x="&xxe;" y="1"/></Stroke></StrokeSet></WhiteboardCaptureSession>
"""
EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE WhiteboardCaptureSession SYSTEM "http://127.0.0.1:9/evil.dtd">
<WhiteboardCaptureSession><StrokeSet><Stroke><Point x="1" y="1"/></Stroke></StrokeSet></WhiteboardCaptureSession>
"""
IAM_BAD = {
    "billion_laughs": (BILLION_LAUGHS, "declares DOCTYPE"),
    "external_entity": (XXE, "declares DOCTYPE"),
    "external_dtd": (EXTERNAL_DTD, "declares DOCTYPE"),
    "entity_without_doctype": (GOOD.replace(b"<StrokeSet>", b'<!ENTITY a "b"><StrokeSet>'), "declares ENTITY"),
    "undeclared_entity": (GOOD.replace(b'x="1"', b'x="&xxe;"'), "malformed or truncated XML"),
    "truncated": (GOOD[:len(GOOD) // 2], "malformed or truncated XML"),
    "not_xml": (b"\x1f\x8b\x08 binary junk", "malformed or truncated XML"),
    "utf16": (GOOD.decode("latin-1").replace("ISO-8859-1", "UTF-16").encode("utf-16"), "not an 8-bit XML file"),
    "wrong_root": (iam_xml([np.array([[1, 2]])], root="svg"), "root element <svg>, not <WhiteboardCaptureSession>"),
    "no_strokeset": (b"<WhiteboardCaptureSession><WhiteboardDescription/></WhiteboardCaptureSession>",
                     "has no <StrokeSet>"),
    "no_strokes": (b"<WhiteboardCaptureSession><StrokeSet/></WhiteboardCaptureSession>", "has no <Stroke>"),
    "empty_stroke": (GOOD.replace(b"</StrokeSet>", b'<Stroke colour="black"></Stroke></StrokeSet>'),
                     "stroke 2 has no <Point>; an empty stroke"),
    "missing_y": (GOOD.replace(b'y="4"', b""), "point 2 of stroke 1 lacks the attribute y"),
    "non_numeric": (GOOD.replace(b'x="3"', b'x="3a"'), "point 2 of stroke 1 has the non-numeric x='3a'"),
    "nan": (GOOD.replace(b'x="3"', b'x="nan"'), "non-numeric x='nan'"),
}


@pytest.mark.parametrize("case", sorted(IAM_BAD))
def test_iam_bad_files(tmp_path, case):
    """Each bad file, among good ones, stops the load with one line naming it, fast and without expanding."""
    write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=2)
    raw, words = IAM_BAD[case]
    bad = tmp_path / "lineStrokes" / "a01" / "a01-001" / "a01-001u-03.xml"
    bad.write_bytes(raw)
    start = time.perf_counter()
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes", str(tmp_path)))
    assert time.perf_counter() - start < 5
    msg = one_line(e)
    assert str(bad) in msg and words in msg, msg


def test_iam_file_size_limit(tmp_path, monkeypatch):
    write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=1)
    monkeypatch.setattr(iamondb, "MAX_XML_BYTES", 100)
    with pytest.raises(DataError, match="more than the 100 allowed") as e:
        load_task(task_spec("strokes", str(tmp_path)))
    assert "a01-000u-01.xml" in one_line(e)


def test_iam_folder_errors(tmp_path):
    with pytest.raises(DataError, match="pass --data-dir DIR with DIR/lineStrokes"):
        load_task(task_spec("strokes"))
    with pytest.raises(DataError, match="does not exist"):
        load_task(task_spec("strokes", str(tmp_path / "absent")))
    (tmp_path / "lineStrokes" / "a01").mkdir(parents=True)
    (tmp_path / "lineStrokes" / "a01" / "readme.txt").write_text("no xml here")
    with pytest.raises(DataError, match="holds no IAM-OnDB line files") as e:
        load_task(task_spec("strokes", str(tmp_path)))
    assert str(tmp_path) in one_line(e)
    write_iam(tmp_path, forms=("a01-000u",), lines=3)
    with pytest.raises(DataError, match="at least two forms"):
        load_task(task_spec("strokes", str(tmp_path)))


# ---------------------------------------------------------------- KanjiVG SVG

SVG_HEAD = b"""<?xml version="1.0" encoding="UTF-8"?>
<!--
Copyright (C) 2009/2010/2011 Ulrich Apel.
This work is distributed under the conditions of the Creative Commons
Attribution-Share Alike 3.0 Licence.
-->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd" [
<!ATTLIST g
xmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"
kvg:element CDATA #IMPLIED
kvg:position CDATA #IMPLIED >
<!ATTLIST path
xmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"
kvg:type CDATA #IMPLIED >
]>
"""


def kvg_svg(cp, paths, order=None):
    """A file in KanjiVG's format: one <path id="kvg:XXXXX-sK"> per stroke; ``order`` permutes where they
    appear in the document (their ids keep the stroke numbers)."""
    h = f"{cp:05x}"
    order = order or range(len(paths))
    body = "\n".join(f'\t<path id="kvg:{h}-s{k + 1}" kvg:type="x" d="{paths[k]}"/>' for k in order)
    doc = (f'<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109" viewBox="0 0 109 109" '
           f'xmlns:kvg="https://kanjivg.tagaini.net/">\n<g id="kvg:StrokePaths_{h}" style="fill:none;">\n'
           f'<g id="kvg:{h}" kvg:element="{chr(cp)}">\n{body}\n</g>\n</g>\n'
           f'<g id="kvg:StrokeNumbers_{h}" style="font-size:8;fill:#808080">\n'
           f'\t<text transform="matrix(1 0 0 1 45.37 18.35)">1</text>\n</g>\n</svg>\n')
    return SVG_HEAD + doc.encode()


# Latin-like test designs: A from KanjiVG itself, and strokes using every supported command.
A_PATHS = ["M54.46,14.41c-8.67,19.8-31.28,70.81-34.46,78.47", "M54.46,14.41c5.06,11.27,30.2,68.64,34.54,78.47",
           "M32.18,66.14c12.28,0,33.91,0,44.02,0"]
MIXED_PATHS = ["M10,10L30,10l0,20H10V10Z", "m20,50C20,60 30,70 40,70S60,60 60,50s-10,-20-20-20",
               "M70,20c1-2,3-4,5-6c.5.5-1e1,2E0,1,1"]


def bezier(p0, p1, p2, p3, t):
    return ((1 - t) ** 3)[:, None] * p0 + (3 * (1 - t) ** 2 * t)[:, None] * p1 + \
        (3 * (1 - t) * t * t)[:, None] * p2 + (t ** 3)[:, None] * p3


def test_svg_path_commands():
    polys = kanjivg.path_polylines("M10,10L30,10l0,20H10V10Z")
    assert len(polys) == 1
    corners = polys[0]
    assert corners.tolist() == [[10, 10], [30, 10], [30, 30], [10, 30], [10, 10], [10, 10]]
    # relative m starts at the origin; repeated pairs after M are lines
    assert kanjivg.path_polylines("m5,6 1,1 2,2")[0].tolist() == [[5, 6], [6, 7], [8, 9]]
    # C and S, against a direct evaluation of the Bezier curves
    (p,) = kanjivg.path_polylines("M0,0C0,10 10,10 10,0S20,-10 20,0")
    t = np.linspace(0, 1, kanjivg.CURVE_POINTS + 1)
    first = bezier(np.array([0, 0]), np.array([0, 10]), np.array([10, 10]), np.array([10, 0]), t)
    second = bezier(np.array([10, 0]), np.array([10, -10]), np.array([20, -10]), np.array([20, 0]), t)
    assert np.allclose(p, np.vstack([first, second[1:]]))
    (q,) = kanjivg.path_polylines("M0,0c0,10,10,10,10,0s10,-10,10,0")   # the same, relative
    assert np.allclose(p, q)
    # numbers written as KanjiVG's exporter writes them: -8.67-31.28, .5.5, exponents
    (r,) = kanjivg.path_polylines("M1,1l-0.5-.5.25.25 1e1,0")
    assert np.allclose(r, [[1, 1], [0.5, 0.5], [0.75, 0.75], [10.75, 0.75]])
    two = kanjivg.path_polylines("M0,0L1,1M5,5L6,6")            # a second moveto starts a new stroke
    assert [len(s) for s in two] == [2, 2]


@pytest.mark.parametrize("d, words", [
    ("M0,0Q1,1,2,2", "'Q' is not supported"),
    ("M0,0C1,1,2", "C needs a multiple of 6 numbers"),
    ("L1,1", "draws before its first moveto"),
    ("10,10", "does not start with a command"),
    ("M0,0L1,#", "cannot read path data"),
    ("M0,0Z1", "Z takes no numbers"),
])
def test_svg_path_errors(d, words):
    with pytest.raises(DataError, match=words) as e:
        kanjivg.path_polylines(d, "f.svg")
    assert "f.svg" in one_line(e)


def test_resample_by_arc_length():
    poly = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 5.0]])   # length 15
    pts = kanjivg.resample(poly, spacing=3.0)                  # at arc lengths 0, 3, ..., 15
    assert np.allclose(pts, [[0, 0], [3, 0], [6, 0], [9, 0], [10, 2], [10, 5]])
    assert np.allclose(kanjivg.resample(poly, spacing=4.0)[1:3], [[3.75, 0], [7.5, 0]])  # 15 / 4 -> 5 points
    assert kanjivg.resample(np.array([[1.0, 2.0], [1.0, 2.0]])).tolist() == [[1.0, 2.0]]   # a dot
    curve = kanjivg.path_polylines("M0,0C0,30 30,30 30,0")[0]
    steps = np.hypot(*np.diff(kanjivg.resample(curve, 2.0), axis=0).T)
    assert steps.std() < 0.05 * steps.mean()                     # even spacing along the curve too


def test_read_design_stroke_order_and_y_up(tmp_path):
    p = tmp_path / "00041.svg"
    p.write_bytes(kvg_svg(0x41, A_PATHS, order=[2, 0, 1]))      # strokes out of document order
    design = kanjivg.read_design(str(p))
    assert len(design) == 3
    assert np.allclose(design[0][0], [54.46, -14.41]) and np.allclose(design[0][-1], [20.0, -92.88])
    assert np.allclose(design[2][0], [32.18, -66.14]) and np.allclose(design[2][-1], [76.2, -66.14])
    seq = S.to_stroke3(design)
    assert seq[:, 2].sum() == 3 and seq[len(design[0]) - 1, 2] == 1   # a lift at each stroke's end


@pytest.mark.parametrize("raw, words", [
    (kvg_svg(0x41, A_PATHS).replace(b"<!ATTLIST g", b'<!ENTITY lol "lol">\n<!ATTLIST g'), "declares XML entities"),
    (kvg_svg(0x41, A_PATHS)[:-60], "malformed or truncated XML"),
    (kvg_svg(0x41, A_PATHS).replace(b"<svg ", b"<svgx ").replace(b"</svg>", b"</svgx>"), "root element"),
    (kvg_svg(0x41, A_PATHS).replace(b"-s1", b"-x1").replace(b"-s2", b"-x2").replace(b"-s3", b"-x3"),
     "no stroke paths"),
    (kvg_svg(0x41, A_PATHS).replace(b'd="M32.18', b'dd="M32.18'), "has no path data"),
    (kvg_svg(0x41, ["M1,1A1,1,0,0,0,2,2"]), "'A' is not supported"),
    (kvg_svg(0x41, A_PATHS).replace(b"<!DOCTYPE svg", b"<!DOCTYPE svg [ <!DOCTYPE x> ]> <!DOCTYPE svg"),
     "document type declaration"),
])
def test_svg_bad_files(tmp_path, raw, words):
    p = tmp_path / "00041.svg"
    p.write_bytes(raw)
    with pytest.raises(DataError, match=words) as e:
        kanjivg.read_design(str(p))
    assert str(p) in one_line(e)


def write_kvg_folder(folder, chars="0123ABCDab"):
    folder.mkdir(parents=True, exist_ok=True)
    for i, c in enumerate(chars):
        (folder / f"{ord(c):05x}.svg").write_bytes(kvg_svg(ord(c), [A_PATHS, MIXED_PATHS][i % 2]))
    (folder / "00041-Kaisho.svg").write_bytes(b"not read: a variant")
    (folder / "notes.txt").write_text("ignored")
    return str(folder)


def test_kanjivg_task_from_a_folder(tmp_path):
    d = write_kvg_folder(tmp_path / "kanji")
    t = load_task(task_spec("strokes-kanjivg", str(tmp_path), split="60/20"))   # finds kanji/ inside
    assert t.spec == {"task": "strokes-kanjivg", "data_dir": str(tmp_path), "split": "60/20", "charset": "latin"}
    assert t.size("train") == 60 and t.size("val") == 20
    chars = {w: set("".join(t.text(w, i) for i in range(t.size(w)))) for w in ("train", "val")}
    held = {chr(c) for c in t.extra["val_designs"]}
    assert chars["val"] == held and not chars["train"] & held   # no design in both splits
    assert chars["train"] | chars["val"] <= set("0123ABCDab") and len(held) == 1
    lens = [len(t.text("train", i)) for i in range(60)]
    assert min(lens) >= 1 and max(lens) <= kanjivg.CHARS_PER_LINE["latin"]
    # strokes per line: each character's strokes, in order (A-like designs 3, mixed designs 3)
    for i in range(5):
        assert t.line("train", i)[:, 2].sum() == 3 * len(t.text("train", i))
    again = load_task(t.spec)
    assert np.array_equal(again.sets["train"].points, t.sets["train"].points)
    assert load_task(task_spec("strokes-kanjivg", d, split="60/20")).size("val") == 20


def test_kanjivg_augmentation_makes_writers():
    rng = np.random.default_rng(0)
    design = [np.array([[0.0, 0.0], [10.0, -20.0], [20.0, 0.0]]), np.array([[5.0, -10.0], [15.0, -10.0]])]
    a, b = kanjivg.augment(design, rng, 1.0, 0.2), kanjivg.augment(design, rng, 1.0, -0.2)
    assert [len(s) for s in a] == [3, 2] and not np.allclose(a[0], b[0])
    line = kanjivg.join_line([a, b], rng, 1.0)
    first_right, second_left = np.concatenate(line[:2])[:, 0].max(), np.concatenate(line[2:])[:, 0].min()
    assert kanjivg.GAP[0] - 1e-9 <= second_left - first_right <= kanjivg.GAP[1] + 1e-9


def test_kanjivg_folder_errors(tmp_path):
    with pytest.raises(DataError, match="does not exist"):
        load_task(task_spec("strokes-kanjivg", str(tmp_path / "absent")))
    with pytest.raises(DataError, match="holds no KanjiVG files"):
        load_task(task_spec("strokes-kanjivg", str(tmp_path)))
    write_kvg_folder(tmp_path / "k", chars="A")
    with pytest.raises(DataError, match="holds 1 latin character; at least 2"):
        load_task(task_spec("strokes-kanjivg", str(tmp_path / "k")))


def test_kanjivg_not_installed(monkeypatch):
    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    with pytest.raises(DataError, match=r"pip install 'lnrnn\[kanjivg\]'") as e:
        load_task(task_spec("strokes-kanjivg"))
    assert "CC BY-SA 3.0" in one_line(e)


def kanjivg_installed():
    try:
        importlib.metadata.distribution("kanjivg")
        return True
    except importlib.metadata.PackageNotFoundError:
        return False


needs_kanjivg = pytest.mark.skipif(not kanjivg_installed(), reason="the kanjivg package is not installed "
                                   "(pip install 'lnrnn[kanjivg]')")


@needs_kanjivg
def test_kanjivg_package_latin():
    files = kanjivg.installed_files()
    assert all(cp in files for cp in kanjivg.CHARSETS["latin"])
    t = load_task(task_spec("strokes-kanjivg", split="200/40"))
    assert "62 designs" in t.description and t.size("train") == 200
    held = set(map(chr, t.extra["val_designs"]))
    assert len(held) == 6 and not held & set("".join(t.text("train", i) for i in range(200)))
    a = kanjivg.read_design(files[ord("A")])
    assert len(a) == 3 and np.allclose(a[0][0], [54.46, -14.41])   # KanjiVG's A, first stroke's start
    x, y, lengths = t.batch("val", np.arange(10))
    assert x.shape == (lengths.max(), 10, 3) and np.isfinite(x).all()


@needs_kanjivg
def test_kanjivg_package_kana_and_every_file_parses():
    files = kanjivg.installed_files()
    kana = [cp for cp in kanjivg.CHARSETS["kana"] if cp in files]
    assert len(kana) > 150
    for cp in kana:                                        # every kana design reads and has strokes
        assert kanjivg.read_design(files[cp])
    t = load_task(task_spec("strokes-kanjivg", split="50/10", charset="kana"))
    assert t.size("val") == 10 and t.spec["charset"] == "kana"


# ---------------------------------------------------------------- .npz / .npy stroke-3 files

def seqs(n, rng, lo=3, hi=30):
    out = []
    for _ in range(n):
        k = int(rng.integers(lo, hi))
        s = np.column_stack([rng.integers(-20, 21, (k, 2)), rng.random(k) < 0.2]).astype(np.int16)
        s[-1, 2] = 1
        out.append(s)
    return out


def test_npz_pickle_free_layouts(tmp_path):
    rng = np.random.default_rng(2)
    pool = seqs(40, rng)
    stroke_files.save_npz(tmp_path / "pool.npz", pool)
    t = load_task(task_spec("strokes-npz", str(tmp_path / "pool.npz")))
    assert t.size("train") == 36 and t.size("val") == 4
    got = sorted(tuple(np.round(t.line(w, i) * [*t.scale, 1]).astype(int).ravel())
                 for w in ("train", "val") for i in range(t.size(w)))
    assert got == sorted(tuple(s.astype(int).ravel()) for s in pool)   # every sequence, once, as stored
    tr, va = seqs(10, rng), seqs(3, rng)
    stroke_files.save_npz(tmp_path / "split.npz", tr, va)
    t = load_task(task_spec("strokes-npz", str(tmp_path / "split.npz")))
    assert t.size("train") == 10 and t.size("val") == 3
    assert np.allclose(t.line("val", 2) * [*t.scale, 1], va[2])
    x, y, lengths = t.batch("train", [0, 1])
    assert lengths.tolist() == [len(tr[0]) - 1, len(tr[1]) - 1]
    # a folder holding exactly one file
    (tmp_path / "one").mkdir()
    os.replace(tmp_path / "split.npz", tmp_path / "one" / "split.npz")
    assert load_task(task_spec("strokes-npz", str(tmp_path / "one"))).size("val") == 3


def object_array(items):
    arr = np.empty(len(items), dtype=object)
    for i, s in enumerate(items):
        arr[i] = s
    return arr


def test_npz_pickle_needs_opt_in(tmp_path):
    rng = np.random.default_rng(3)
    tr, va = seqs(12, rng), seqs(4, rng)
    np.savez(tmp_path / "sketch.npz", train=object_array(tr), valid=object_array(va), test=object_array(va))
    np.save(tmp_path / "seqs.npy", object_array(tr + va), allow_pickle=True)
    for name in ("sketch.npz", "seqs.npy"):
        path = str(tmp_path / name)
        with pytest.raises(DataError, match="need pickle, which can run arbitrary code") as e:
            load_task(task_spec("strokes-npz", path))
        assert path in one_line(e) and "allow_pickle" in str(e.value)
    t = load_task(task_spec("strokes-npz", str(tmp_path / "sketch.npz"), allow_pickle=True))
    assert t.size("train") == 12 and t.size("val") == 4 and t.spec["allow_pickle"] is True
    assert np.allclose(t.line("train", 5) * [*t.scale, 1], tr[5])
    t = load_task(task_spec("strokes-npz", str(tmp_path / "seqs.npy"), allow_pickle=True))
    assert t.size("train") + t.size("val") == 16


def test_npz_bad_files(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    good = seqs(10, rng)
    flat, lengths = np.concatenate(good), np.array([len(s) for s in good])
    cases = {
        "too_long": ({"strokes": np.zeros((stroke_files.MAX_POINTS + 1, 3)),
                      "lengths": np.array([stroke_files.MAX_POINTS + 1])}, "more than the limit of 10,000"),
        "mismatch": ({"strokes": flat, "lengths": lengths + 1}, "do not belong together"),
        "float_lengths": ({"strokes": flat, "lengths": lengths.astype(float)}, "1-D integer array"),
        "two_columns": ({"strokes": flat[:, :2], "lengths": lengths}, r"numeric \(N, 3\) array"),
        "pen_values": ({"strokes": flat * [1, 1, 2], "lengths": lengths}, "values other than 0 and 1"),
        "nan": ({"strokes": np.where(flat == flat.max(), np.nan, flat), "lengths": lengths}, "NaN or infinite"),
        "keys": ({"x": flat}, "expected strokes \\+ lengths"),
    }
    for name, (arrays, words) in cases.items():
        path = str(tmp_path / f"{name}.npz")
        np.savez(path, **arrays)
        with pytest.raises(DataError, match=words) as e:
            load_task(task_spec("strokes-npz", path))
        assert path in one_line(e), name
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(DataError, match="not a readable|damaged|not a valid") as e:
        load_task(task_spec("strokes-npz", str(junk)))
    assert str(junk) in one_line(e)
    np.save(tmp_path / "plain.npy", flat)
    with pytest.raises(DataError, match="not a list of \\(N, 3\\) sequences"):
        load_task(task_spec("strokes-npz", str(tmp_path / "plain.npy")))
    with pytest.raises(DataError, match=f"holds {len(list(tmp_path.glob('*.np[yz]')))} .npz/.npy files"):
        load_task(task_spec("strokes-npz", str(tmp_path)))
    with pytest.raises(DataError, match="does not exist"):
        load_task(task_spec("strokes-npz", str(tmp_path / "absent.npz")))
    with pytest.raises(DataError, match="pass --data-dir FILE.npz"):
        load_task(task_spec("strokes-npz"))
