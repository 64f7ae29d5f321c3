"""Planted bugs in how a reading task splits and describes its lines (lnrnn/data/kanjivg.py,
lnrnn/data/strokes.py ReadingTask), each caught by tests/data/test_text_strokes.py
(format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'reader-split-*'
"""

TEXT = "tests/data/test_text_strokes.py"
KVG = "lnrnn/data/kanjivg.py"
STROKES = "lnrnn/data/strokes.py"

MUTANTS = [
    dict(name="reader-split-kanjivg-holds-designs-out", file=KVG,
         old='    reading = spec.get("head") == "ctc"\n',
         new='    reading = False\n',
         tests=[TEXT],
         why="a KanjiVG reader is validated on characters it never trained on: its CER cannot fall"),
    dict(name="reader-split-kanjivg-validation-draws-only-the-first-design", file=KVG,
         old="    train_cps, val_cps = (cps, cps) if reading else (cps[~val], cps[val])\n",
         new="    train_cps, val_cps = (cps, cps[:1]) if reading else (cps[~val], cps[val])\n",
         tests=[TEXT],
         why="the reader's validation lines draw one character only"),
    dict(name="reader-split-unseen-counts-the-training-texts", file=STROKES,
         old='        unseen = "".join(sorted(set("".join(val.texts)) - set(self.alphabet)))\n',
         new='        unseen = "".join(sorted(set("".join(train.texts)) - set(self.alphabet)))\n',
         tests=[TEXT],
         why="the validation characters no reader can name are never reported"),
]
