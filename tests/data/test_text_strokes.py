"""Text-labelled strokes: the alphabet and texts of a stroke task, IAM-OnDB's transcriptions (files written
here in IAM-OnDB's format), KanjiVG's characters as text, and strokes-hershey's lines checked against
their definitions (point spacing, slant, baseline, merged joins, pen lifts, bounds, texts). The Hershey
tests skip without the hershey-fonts package, unless LNRNN_REQUIRE_EXTRAS=1 (CI), where they fail."""
import functools
import importlib.util
import os
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.data import hershey, iamondb
from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.data.words import WORDS
from lnrnn.errors import DataError

import test_strokes_data as sd   # the IAM-OnDB and KanjiVG writers (a module, so its tests are not collected twice)

REQUIRE = os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1"
HAVE_HERSHEY = importlib.util.find_spec("HersheyFonts") is not None
needs_hershey = pytest.mark.skipif(not (HAVE_HERSHEY or REQUIRE),
                                   reason="hershey-fonts is not installed (pip install 'lnrnn[hershey]')")


def one_line(e):
    msg = str(e.value)
    assert "\n" not in msg and msg.strip()
    return msg


# ---------------------------------------------------------------- alphabet and codes

def test_alphabet_and_codes():
    a = S.make_alphabet(["ba c", "cab", ""])
    assert a == S.UNKNOWN + " abc" and S.UNKNOWN == "\ufffd"
    assert S.encode_text("cab", a).tolist() == [4, 2, 3]
    assert S.encode_text("dz b", a).tolist() == [0, 0, 1, 3]          # unseen characters -> 0
    assert S.make_alphabet(["a\ufffd"]) == S.UNKNOWN + "a"            # the unknown symbol appears once
    assert S.encode_text("", a).dtype == np.int64 and S.encode_text("", a).shape == (0,)


def test_a_task_without_text_has_none():
    t = load_task(task_spec("strokes-synthetic", split="20/5"))
    assert t.alphabet is None and t.texts_train is None and t.texts_val is None
    assert S.text_record(t) is None
    with pytest.raises(ValueError, match="has no text"):
        t.encode("a")


def test_texts_follow_their_lines_past_short_ones():
    ln = np.array([[0.0, 0, 0], [1, 1, 1]])
    t = S.make_task({"task": "x"}, "x", S.RawSplit([ln[:1], ln, ln], texts=["gone", "ab", "b"]),
                    S.RawSplit([ln], texts=["zb"]))
    assert t.texts_train == ["ab", "b"] and t.texts_val == ["zb"]     # the 1-point line's text went with it
    assert t.alphabet == S.UNKNOWN + "ab"                              # training texts only: no 'z', no 'gone'
    assert t.encode("zb").tolist() == [0, 2]
    assert S.text_record(t) == {"alphabet": S.UNKNOWN + "ab", "unknown": 0, "lines": 2}


# ---------------------------------------------------------------- IAM-OnDB transcriptions

def ascii_file(base, form):
    return base / "ascii" / form[:3] / form[:7] / (form + ".txt")


def test_iam_transcriptions_pair_with_line_files(tmp_path):
    written = sd.write_iam(tmp_path)                  # 5 forms x 3 lines, CSR line k for file -0k
    t = load_task(task_spec("strokes", str(tmp_path)))
    for w, texts in (("train", t.texts_train), ("val", t.texts_val)):
        assert texts == [written[n][1] for n in t.sets[w].names]
    train_chars = set("".join(t.texts_train))
    assert t.alphabet == S.UNKNOWN + "".join(sorted(train_chars))
    assert "15 with transcriptions" in t.description and "0 lines without one skipped" in t.description
    assert S.text_record(t)["alphabet"] == t.alphabet and t.extra["skipped_no_text"] == 0


def test_iam_lines_without_transcription_are_skipped_and_counted(tmp_path):
    written = sd.write_iam(tmp_path)
    val_form = iamondb.form_of(load_task(task_spec("strokes", str(tmp_path))).sets["val"].names[0])[0]
    a, b = [f for f in ("a01-000u", "a01-000x", "a02-004", "b05-123z", "c01-009") if f != val_form][:2]
    os.remove(ascii_file(tmp_path, a))                # a form without its ascii file: 3 lines
    p = ascii_file(tmp_path, b)                       # a blank CSR line: line 2 of the other form
    p.write_bytes(p.read_bytes().replace(f"{b} line 2 caf\xe9".encode("latin-1"), b"   "))
    t = load_task(task_spec("strokes", str(tmp_path)))
    names = t.sets["train"].names + t.sets["val"].names
    assert len(names) == 15 - 4 and not any(n.startswith(a) or n == f"{b}-02" for n in names)
    assert t.extra["skipped_no_text"] == 4 and "4 lines without one skipped" in t.description
    assert "11 with transcriptions" in t.description
    for w in ("train", "val"):
        assert [t.text(w, i) for i in range(t.size(w))] == [written[n][1] for n in t.sets[w].names]


@pytest.mark.parametrize("case", ["fewer_csr_lines", "more_csr_lines", "numbers_do_not_run_1_to_n"])
def test_iam_transcription_that_does_not_match_stops(tmp_path, case):
    sd.write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=3)
    txt = ascii_file(tmp_path, "a01-001u")
    folder = tmp_path / "lineStrokes" / "a01" / "a01-001"
    if case == "fewer_csr_lines":
        txt.write_bytes(txt.read_bytes().replace(b"a01-001u line 3 caf\xe9", b""))
    elif case == "more_csr_lines":
        txt.write_bytes(txt.read_bytes().rstrip() + b"\na fourth line\n")
    else:
        os.rename(folder / "a01-001u-02.xml", folder / "a01-001u-04.xml")   # files 1, 3, 4 for 3 CSR lines
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes", str(tmp_path)))
    msg = one_line(e)
    assert str(txt) in msg and str(folder) in msg and "do not belong together" in msg


def test_iam_every_line_file_of_a_form_counts_even_outside_the_split(tmp_path):
    """The official split reads one line of a01-000x, yet its ascii file must pair with all 3 files."""
    sd.write_iam(tmp_path)
    sd.write_task_lists(tmp_path / "tasks", ["a01-000u", "a02-004"], ["a01-000x-02"])
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.sets["val"].names == ["a01-000x-02"] and t.texts_val == ["a01-000x line 2 caf\xe9"]
    os.remove(tmp_path / "lineStrokes" / "a01" / "a01-000" / "a01-000x-03.xml")   # one unread file gone
    with pytest.raises(DataError, match="do not belong together"):
        load_task(task_spec("strokes", str(tmp_path)))


def test_iam_ascii_folder_without_any_of_the_forms(tmp_path):
    sd.write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=2)
    for form in ("a01-000u", "a01-001u"):
        os.remove(ascii_file(tmp_path, form))
    with pytest.raises(DataError, match="holds no transcription of the 4 lines") as e:
        load_task(task_spec("strokes", str(tmp_path)))
    one_line(e)


def test_iam_without_ascii_has_no_text(tmp_path):
    sd.write_iam(tmp_path, forms=("a01-000u", "a01-001u"), lines=2, ascii_dir=False)
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.size("train") + t.size("val") == 4 and t.alphabet is None and t.texts_train is None
    assert "no ascii/ found" in t.description


# ---------------------------------------------------------------- KanjiVG characters as text

def test_kanjivg_lines_carry_their_characters(tmp_path):
    sd.write_kvg_folder(tmp_path / "kanji")
    t = load_task(task_spec("strokes-kanjivg", str(tmp_path), split="60/20"))
    held = {chr(c) for c in t.extra["val_designs"]}
    assert len(t.texts_train) == 60 and len(t.texts_val) == 20
    assert t.alphabet == S.UNKNOWN + "".join(sorted(set("".join(t.texts_train))))
    assert not held & set(t.alphabet)                                   # held-out designs are unknown
    assert all((t.encode(s) == 0).all() for s in t.texts_val)
    for i in range(60):                                                 # 3 strokes per test design
        assert t.line("train", i)[:, 2].sum() == 3 * len(t.texts_train[i])


def test_a_kanjivg_reader_is_validated_on_the_characters_it_trains_on(tmp_path):
    """Writing holds designs out; reading cannot (a reader names only characters it was trained on), so
    its validation lines are other combinations and augmentations of every design."""
    sd.write_kvg_folder(tmp_path / "kanji")
    writer = load_task(task_spec("strokes-kanjivg", str(tmp_path), split="60/20"))
    reader = load_task(task_spec("strokes-kanjivg", str(tmp_path), split="60/20", head="ctc"))
    assert reader.extra["val_designs"] == [] and "every design in both splits" in reader.description
    seen = set("".join(reader.texts_train))
    assert set("".join(reader.texts_val)) == seen == set("0123ABCDab")    # 20 lines of up to 5 draw all 10
    assert reader.extra["unseen_characters"] == "" and "no reader can name" not in reader.description
    assert not np.array_equal(reader.sets["train"].points, writer.sets["train"].points)   # writer lacks 1 design
    val_labels = reader.batch("val", np.arange(20))[1]
    assert (val_labels[val_labels > 0] > S.CTC_SHIFT).all()            # no validation character is unknown


def test_a_reader_names_validation_characters_no_training_text_uses(tmp_path):
    """A reading task whose validation holds characters the training texts never use says which."""
    sd.write_iam(tmp_path)            # each form's name is in its texts, and each has a character of its own
    t = load_task(task_spec("strokes", str(tmp_path), head="ctc"))
    unseen = t.extra["unseen_characters"]
    assert unseen and set(unseen) == set("".join(t.texts_val)) - set(t.alphabet)
    assert f"{len(unseen)} character{'s' * (len(unseen) != 1)} no training text uses" in t.description


# ---------------------------------------------------------------- strokes-hershey

def plain(**kw):
    """A Style without randomness beyond the word gaps (none by default): scale 1, no slant, flat
    baseline, spacing 1, no jitter."""
    d = dict(scale=1.0, slant=0.0, tilt=0.0, wave=0.0, period=100.0, phase=0.0, word_gap=0.0, spacing=1.0,
             jitter=0.0)
    d.update(kw)
    return hershey.Style(**d)


def steps_down(strokes):
    """Pen-down step lengths of a list of absolute strokes."""
    return np.concatenate([np.hypot(*np.diff(s, axis=0).T) for s in strokes if len(s) > 1])


@pytest.fixture(scope="module")
def hershey_task():
    return load_task(task_spec("strokes-hershey", split="300/60"))


@needs_hershey
def test_hershey_joins_merged_by_definition():
    """A stroke that starts where the last ended continues it; every other lift stays, at its length."""
    font = hershey.load_font("scripts")
    raw, _ = hershey.word_strokes(font, "minimum hello")
    gaps = np.array([np.hypot(*(b[0] - a[-1])) for a, b in zip(raw, raw[1:])])
    assert (gaps == 0).sum() >= 5                                       # script letters join (and a few inside)
    merged = hershey.merge_joins(raw)
    assert len(merged) == 1 + (gaps > 0).sum()
    keep = np.concatenate([[True] * len(raw[0])] + [[g > 0] + [True] * (len(b) - 1) for g, b in zip(gaps, raw[1:])])
    assert np.array_equal(np.concatenate(merged), np.concatenate(raw)[keep])
    lifts = np.array([np.hypot(*(b[0] - a[-1])) for a, b in zip(merged, merged[1:])])
    assert lifts.min() > 0
    # roman letters never join: nothing to merge in "lil"
    raw_r, _ = hershey.word_strokes(hershey.load_font("futural"), "lil")
    assert len(hershey.merge_joins(raw_r)) == len(raw_r)


@needs_hershey
def test_hershey_point_spacing():
    font, rng = hershey.load_font("scripts"), np.random.default_rng(0)
    for spacing in (0.7, 2.0, 3.1):
        strokes = hershey.draw_line(font, "quick brown fox", plain(spacing=spacing, scale=1.2), rng)
        d = steps_down(strokes)
        assert d.max() <= spacing + 1e-9                                # resampled every <= spacing of arc
        assert d.mean() > 0.85 * spacing                                # chords of curves, not much shorter
    # a straight stroke: the roman l, 21 units tall, in 21 / ceil(21 / 2) steps exactly
    (l,) = hershey.draw_line(hershey.load_font("futural"), "l", plain(spacing=2.0), rng)
    assert len(l) == 12 and np.allclose(np.abs(np.diff(l[:, 1])), 21 / 11) and np.allclose(l[:, 0], l[0, 0])


@needs_hershey
def test_hershey_slant_and_baseline():
    font, rng = hershey.load_font("futural"), np.random.default_rng(0)
    (l,) = hershey.draw_line(font, "l", plain(slant=0.3, scale=1.5), rng)
    x0, y0 = l[np.argmin(l[:, 1])]
    assert np.isclose(y0, 0.0) and np.allclose(l[:, 0] - x0, 0.3 * (l[:, 1] - y0))   # x += slant * y
    assert np.isclose(l[:, 1].max(), 21 * 1.5)                           # capital height 21 font units
    # the baseline: the feet of two l's lie on y = tilt * x + wave * sin(2 pi x / period + phase)
    style = plain(tilt=0.02, wave=1.3, period=37.0, phase=0.4)
    feet = [s[np.argmin(s[:, 1])] for s in hershey.draw_line(font, "l l l", style, rng)]
    for x, y in feet:
        assert np.isclose(y, 0.02 * x + 1.3 * np.sin(2 * np.pi * x / 37.0 + 0.4))
    # word gaps: the second word starts later by up to word_gap
    a = hershey.draw_line(font, "l l", plain(), rng)
    b = hershey.draw_line(font, "l l", plain(word_gap=6.0), np.random.default_rng(1))
    assert 0 < b[1][0, 0] - a[1][0, 0] <= 6.0


@needs_hershey
def test_hershey_jitter_is_per_point_gaussian():
    font = hershey.load_font("scripts")
    clean = np.concatenate(hershey.draw_line(font, "garden train", plain(), np.random.default_rng(3)))
    noisy = np.concatenate(hershey.draw_line(font, "garden train", plain(jitter=0.2), np.random.default_rng(3)))
    noise = noisy - clean                                              # same gaps drawn first, then the noise
    assert noise.shape[0] > 200 and abs(noise.std() - 0.2) < 0.02 and abs(noise.mean()) < 0.03


@needs_hershey
def test_hershey_task_geometry(hershey_task):
    t = hershey_task
    sx, sy = t.scale
    hi_scale = hershey.SCALE[1]
    max_down = hershey.SPACING * hershey.SPEED[1] * hi_scale + 10 * hershey.JITTER * hi_scale
    pts_per_char = []
    for w in ("train", "val"):
        for i in range(t.size(w)):
            ln = t.line(w, i).astype(np.float64)                       # (N, 3) normalized
            assert np.isfinite(ln).all() and set(np.unique(ln[:, 2])) <= {0.0, 1.0} and ln[-1, 2] == 1
            d = ln[:, :2] * [sx, sy]                                    # offsets in source units
            lift_after = np.flatnonzero(ln[:-1, 2] == 1) + 1            # rows reached with the pen up
            down = np.setdiff1d(np.arange(1, len(ln)), lift_after)
            assert np.hypot(*d[down].T).max() <= max_down               # spacing like the definition's
            xy = np.cumsum(d, axis=0)                                   # absolute, first point at 0
            width = np.ptp(xy[:, 0])
            bound = (21 + 12 + 2 * hershey.WAVE[1] + hershey.TILT * width) * hi_scale + 1
            assert np.ptp(xy[:, 1]) <= bound                            # capital 21 + descender 12, drift
            assert width <= (hershey.MAX_CHARS * 30) * hi_scale         # no glyph is 30 units wide
            pts_per_char.append(len(ln) / len(t.text(w, i)))
    assert 15 < np.mean(pts_per_char) < 35                              # about Graves's 25 per character


@needs_hershey
def test_hershey_texts_and_alphabet(hershey_task):
    t = hershey_task
    words = set(WORDS)
    for text in t.texts_train + t.texts_val:
        assert 1 <= len(text) <= hershey.MAX_CHARS and text == text.strip() and "  " not in text
        body = text[:-1] if text[-1] in hershey.MARKS else text
        for word in body.replace("-", " ").split(" "):          # words, numbers; capitals, quotes, marks
            bare = word.rstrip(hershey.INNER_MARKS)
            bare = bare[1:-1] if len(bare) > 2 and bare[0] + bare[-1] in hershey.WRAPS else bare
            assert bare.lower() in words or bare.isdigit(), (word, text)
    assert t.alphabet == S.UNKNOWN + "".join(sorted(set("".join(t.texts_train))))
    assert set(t.alphabet) >= set(" abcdefghiklmnoprstuwy.")
    assert S.text_record(t) == {"alphabet": t.alphabet, "unknown": 0, "lines": 300}
    faces = {n.rsplit("-", 1)[0] for n in t.sets["train"].names}
    assert faces == set(hershey.FACES)


@functools.lru_cache(maxsize=None)
def plain_font(face):
    from HersheyFonts import HersheyFonts
    f = HersheyFonts()
    f.load_default_font(face)
    return f


def font_lifts(face, word):
    """Pen lifts of a word by definition: one per stroke the font draws, less one per stroke that starts
    exactly where the one before it ended (a join)."""
    raw = [np.array(st, float) for st in plain_font(face).strokes_for_text(word)]
    return len(raw) - sum(np.array_equal(a[-1], b[0]) for a, b in zip(raw, raw[1:]))


@needs_hershey
def test_hershey_pen_lifts_are_the_fonts_less_the_joins(hershey_task):
    t, joined, cache = hershey_task, 0, {}
    for w in ("train", "val"):
        for i, name in enumerate(t.sets[w].names):
            face = name.rsplit("-", 1)[0]
            want = 0
            for word in t.text(w, i).split(" "):
                if (face, word) not in cache:
                    cache[face, word] = font_lifts(face, word)
                want += cache[face, word]
            assert t.line(w, i)[:, 2].sum() == want, (name, t.text(w, i))
    raw_scripts = sum(len(list(hershey.load_font("scripts").strokes_for_text(wd))) for wd in WORDS[:50])
    assert sum(font_lifts("scripts", wd) for wd in WORDS[:50]) < 0.8 * raw_scripts   # joins do occur


@needs_hershey
def test_hershey_is_deterministic_and_validation_independent_of_training_count(hershey_task):
    again = load_task(task_spec("strokes-hershey", split="20/60"))
    assert again.texts_val == hershey_task.texts_val
    assert np.array_equal(np.diff(again.sets["val"].starts), np.diff(hershey_task.sets["val"].starts))
    same = load_task(task_spec("strokes-hershey", split="20/60"))
    assert np.array_equal(same.sets["train"].points, again.sets["train"].points)
    assert same.texts_train == hershey_task.texts_train[:20]
    assert hershey_task.texts_val != hershey_task.texts_train[:60]


@needs_hershey
def test_hershey_trains(tmp_path):
    from lnrnn.cli import main
    from lnrnn.training.checkpoint import load_checkpoint
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["train", "--task", "strokes-hershey", "--split", "40/10", "--epochs", "1",
                                  "--hidden", "16", "--layers", "1", "--batch-size", "8", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output + repr(r.exception)
    meta = load_checkpoint(str(out))[0]
    assert meta["task"] == {"task": "strokes-hershey", "split": "40/10"}
    assert np.isfinite(meta["metrics"][-1]["val_loss"])
    # the run keeps its alphabet: the training texts' characters after the unknown symbol
    task = load_task(task_spec("strokes-hershey", split="40/10"))
    assert meta["text"] == {"alphabet": task.alphabet, "unknown": 0, "lines": 40}
    assert meta["text"]["alphabet"][0] == "\ufffd"
    assert set(meta["text"]["alphabet"][1:]) == set("".join(task.texts_train))


def test_hershey_missing_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "HersheyFonts", None)           # import HersheyFonts fails
    hershey.load_font.cache_clear()
    try:
        with pytest.raises(DataError, match=r"pip install 'lnrnn\[hershey\]'") as e:
            load_task(task_spec("strokes-hershey", split="5/2"))
        one_line(e)
    finally:
        hershey.load_font.cache_clear()
