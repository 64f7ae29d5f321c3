"""``lnrnn.judge`` and ``lnrnn sample --judge``: a reader reads what a synthesis run wrote; the CER is the
reader's transcription against the text asked for; the window's travel is where kappa ended (replayed
through the writer and checked against a step-by-step run), the stop rule at the last character and the
peak of phi are read off phi; every bad judge is one line with nothing written.

The writer is test_sample_text's tiny synthesis network; the readers are built directly: a CTC head whose
bias makes one class win at every step reads every line as that one character, so two readers that read
different characters must give the judge different transcriptions and CERs."""
import json

import numpy as np
import pytest

import lnrnn
from lnrnn.data.strokes import CTC_SHIFT
from lnrnn.errors import UserError
from lnrnn.judge import judge, peak_phi, replay_kappa, report_lines, stop_at_last, summary
from lnrnn.model.models import build_model
from lnrnn.sample import Written
from lnrnn.textmetrics import edit_distance
from lnrnn.training.checkpoint import save_checkpoint
from test_sample_text import ALPHABET, SCALE, codes, invoke, one_line_error, save_run, text_model

TEXTS = ["abc", "dcaeb", "e"]


def reader_run(folder, reads="a", alphabet=ALPHABET, task="strokes"):
    """A reader run (CTC head over ``alphabet`` and the blank) that reads every line as ``reads``, one character:
    the head's weights are zero and its bias puts that character's class far above the others at every step."""
    m = build_model(dict(cell="lstm", norm="none", input_size=3, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=1.0, head={"kind": "ctc", "outputs": len(alphabet) + CTC_SHIFT,
                                                "per_step": True, "scale": list(SCALE)}), seed=0)
    m.params["head.W"][:] = 0.0
    m.params["head.b"][:] = 0.0
    m.params["head.b"][alphabet.index(reads) + CTC_SHIFT] = 10.0
    arrays = {"param/" + k: v for k, v in m.params.items()}
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 0, "task": {"task": task, "head": "ctc"},
                                          "train": {"cell": "lstm"},
                                          "text": {"alphabet": alphabet, "unknown": 0, "lines": 1}})
    return str(folder)


@pytest.fixture
def runs(tmp_path):
    m = text_model(kappa_bias=-1.0)
    return m, save_run(tmp_path / "writer", m), reader_run(tmp_path / "reader_a", "a"), \
        reader_run(tmp_path / "reader_d", "d")


def written(writer, bias=0.5, seed=3):
    return lnrnn.sample_run(writer, steps=40, text=TEXTS, bias=bias, seed=seed)


# ---- the reader's transcription and its CER

def test_the_cer_is_the_readers_transcription_against_the_text(runs):
    _, writer, reader_a, reader_d = runs
    rows = written(writer)
    for reader, ch in ((reader_a, "a"), (reader_d, "d")):
        assert lnrnn.read(reader, [r.points for r in rows]) == [ch] * len(rows)   # the reader as built
        got = judge(writer, reader, rows)
        assert [j.read for j in got] == [ch] * len(rows)
        assert [j.text for j in got] == TEXTS
        for j, t in zip(got, TEXTS):
            assert j.cer == pytest.approx(edit_distance(t, ch) / len(t))
    cer_a = [j.cer for j in judge(writer, reader_a, rows)]
    cer_d = [j.cer for j in judge(writer, reader_d, rows)]
    assert cer_a == pytest.approx([2 / 3, 4 / 5, 1.0]) and cer_d == pytest.approx([1.0, 4 / 5, 1.0])


def test_summary_means_the_lines_and_totals_the_edits(runs):
    _, writer, reader_a, _ = runs
    got = judge(writer, reader_a, written(writer))
    s = summary(got)
    assert s["mean_cer"] == pytest.approx((2 / 3 + 4 / 5 + 1.0) / 3)
    assert s["cer"] == pytest.approx((2 + 4 + 1) / (3 + 5 + 1))
    assert s["lines"] == 3 and s["stop_at_last"] == sum(j.stop_at_last for j in got) / 3
    assert s["mean_travel"] == pytest.approx(np.mean([j.travel for j in got]))
    table = report_lines(got)
    assert len(table) == 5 and "'dcaeb' -> 'a'" in table[2] and "0.800" in table[2]


# ---- the window's travel: kappa at the last point, replayed

def stepped_kappa(m, row, seed):
    """kappa_T (alpha-weighted) of one written line, by stepping the model over its inputs one at a time."""
    sx, sy = SCALE
    x = np.zeros((1, 3), m.dtype)
    txt = (row.codes[None, :], np.array([len(row.codes)]))
    state = m.noise_state(1, (3, seed))
    pts = row.points / np.array([sx, sy, 1.0])
    for t in range(len(pts)):
        y, state = m.stack.step(x, state, t=t, text=txt)
        x = pts[t][None].astype(m.dtype)
    K = m.stack.K
    L1 = m.stack.layers[0]
    alpha = np.exp(np.asarray(y[:, :m.stack.H], np.float64) @ L1.params["Wp"] + L1.params["bp"])[0, :K]
    return float((alpha * state[0][2][0]).sum() / alpha.sum())


@pytest.mark.parametrize("kappa_bias", [-1.0, 0.5])
def test_travel_is_where_kappa_ends_over_the_texts_length(tmp_path, kappa_bias):
    m = text_model(kappa_bias=kappa_bias)
    writer, reader = save_run(tmp_path / "w", m), reader_run(tmp_path / "r")
    rows = written(writer, seed=5)
    got = judge(writer, reader, rows, seed=5)
    run = lnrnn.load_run(writer)
    for j, r in zip(got, rows):
        assert j.travel == pytest.approx(stepped_kappa(run.model, r, 5) / len(r.codes), rel=1e-4)
    kappa, phi = replay_kappa(run.model, rows, seed=5)
    for p, r in zip(phi, rows):                                  # the replay is the line the sampler wrote
        np.testing.assert_allclose(p, r.phi, rtol=1e-4, atol=1e-6)


def test_a_window_that_never_moves_travels_nowhere_and_a_fast_one_past_the_end(tmp_path):
    reader = reader_run(tmp_path / "r")
    still = judge(save_run(tmp_path / "still", text_model(kappa_bias=-30.0)), reader,
                  written(save_run(tmp_path / "still2", text_model(kappa_bias=-30.0))))
    assert all(j.travel < 1e-6 and j.capped and not j.stop_at_last for j in still)
    fast_writer = save_run(tmp_path / "fast", text_model(kappa_bias=1.5))
    fast = judge(fast_writer, reader, written(fast_writer))
    assert all(j.travel > 1.0 and not j.capped for j in fast)


# ---- stop rule at the last character, peak phi: read off phi

def row(phi, capped=False, text="abc", prime_chars=0):
    phi = np.asarray(phi, np.float64)
    return Written(points=np.zeros((len(phi), 3)), phi=phi, capped=capped, text=text, chars=list(text),
                   codes=np.arange(1, phi.shape[1] + 1), prime_chars=prime_chars)


def test_stop_at_last_needs_the_rule_and_the_peak_on_the_last_character():
    walked = [[0.9, 0.1, 0.0], [0.1, 0.8, 0.1], [0.0, 0.2, 0.7]]
    assert stop_at_last(row(walked))
    assert not stop_at_last(row(walked, capped=True))                           # the cap ended it
    assert not stop_at_last(row([[0.3, 0.1, 0.0], [0.2, 0.1, 0.05]]))           # fired while reading 'a'
    assert not stop_at_last(row([[0.1, 0.3, 0.2]]))                             # peak on the middle one


def test_peak_phi_is_the_largest_weight_on_the_lines_own_text():
    assert peak_phi(row([[0.2, 0.1, 0.0], [0.1, 0.7, 0.1]])) == pytest.approx(0.7)
    assert peak_phi(row([[0.9, 0.1, 0.3], [0.1, 0.2, 0.1]], text="bc", prime_chars=1)) == pytest.approx(0.3)


# ---- lnrnn sample --judge

def test_cli_prints_the_judged_lines_and_saves_them(runs, tmp_path):
    _, writer, reader_a, _ = runs
    out, npz, js = tmp_path / "w.png", tmp_path / "w.npz", tmp_path / "sub" / "j.json"
    args = ["sample", "--checkpoint", writer, "--steps", 40, "--bias", 0.5, "--seed", 3, "--out", out]
    for t in TEXTS:
        args += ["--text", t]
    r = invoke(*args, "--judge", reader_a, "--npz", npz, "--judge-out", js)
    assert r.exit_code == 0, r.output
    rows = written(writer)
    expect = judge(writer, reader_a, rows, seed=3)
    for line in report_lines(expect):
        assert line in r.stdout
    record = json.loads(js.read_text())
    assert [d["read"] for d in record["lines"]] == ["a"] * 3 and record["bias"] == 0.5
    assert record["summary"]["mean_cer"] == pytest.approx(summary(expect)["mean_cer"])
    with np.load(npz) as f:
        assert list(f["read"]) == ["a"] * 3
        np.testing.assert_allclose(f["cer"], [j.cer for j in expect])
        np.testing.assert_allclose(f["travel"], [j.travel for j in expect])
        assert list(f["stop_at_last"]) == [j.stop_at_last for j in expect]


def test_a_judge_with_another_alphabet_or_task_or_none_is_refused(runs, tmp_path):
    _, writer, _, _ = runs
    out = tmp_path / "w.png"
    base = ["sample", "--checkpoint", writer, "--steps", 20, "--out", out, "--text", "abe"]
    cases = [
        (reader_run(tmp_path / "abc", "a", alphabet="\ufffdabcd"), ["never learned to read", "'e'"]),
        (reader_run(tmp_path / "kanji", "a", task="strokes-kanjivg"), ["reads strokes-kanjivg", "writes strokes"]),
        (writer, ["is a writer"]),
        (str(tmp_path), []),                                     # no run there
    ]
    for judge_folder, words in cases:
        one_line_error(invoke(*base, "--judge", judge_folder), *words)
        assert not out.exists()
    one_line_error(invoke("sample", "--checkpoint", writer, "--out", out, "--judge", runs[2]), "--text")
    one_line_error(invoke(*base, "--judge-out", tmp_path / "j.json"), "--judge")
    one_line_error(invoke(*base, "--judge", runs[2], "--judge-out", tmp_path), "--judge-out")
    assert not out.exists()


def test_the_api_refuses_a_model_without_a_window(runs, tmp_path):
    from test_sample import mdn_run
    _, writer, reader_a, _ = runs
    rows = written(writer)
    mdn_run(tmp_path / "free")
    with pytest.raises(UserError, match="no attention window"):
        judge(str(tmp_path / "free"), reader_a, rows)
    with pytest.raises(UserError, match="is a writer"):
        judge(writer, writer, rows)
