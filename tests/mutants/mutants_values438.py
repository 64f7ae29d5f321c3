"""Planted bugs, round 438 (format: tests/mutants/mutants.py): the survivors of an eighth random sample
(tests/mutants/random_sample.py --seed 8 --count 40 --all-named: 31 of 40 caught; of the 9 missed, 3 on CUDA-only
lines, 2 equivalent or near (an orthogonal matrix's columns times or divided by the signs of R's diagonal, +-1; a
pickle refusal's test of the word 'pickle' beside 'allow_pickle', which numpy's refusals always contain), 4 real:
these) and their neighbours, thirty-third pass.

The planted bugs: a checkpoint's update recorded as 1 when it names none (rnd8-03), and one that does not say it is
a best one recorded as best; three missing task-list entries followed by ', ...' (rnd8-07), two shown where three
are promised; a dL/dc_n seed taken on a row of one step (rnd8-10), refused on a full row; the CTC loss of one
sequence halved (rnd8-26), its error rate without characters halved. 8 mutants. Every old file named after each
module (OLD_FINETUNE, OLD_IAMONDB, OLD_FUNCTIONAL, OLD_HEADS) catches 3 of 8: the best flag, two entries shown, the
full row refused. The new files alone catch 8 of 8, so NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v438-*'
"""
FINETUNE = "lnrnn/training/finetune.py"
IAMONDB = "lnrnn/data/iamondb.py"
FUNCTIONAL = "lnrnn/model/functional.py"
HEADS = "lnrnn/model/heads.py"
NEW_FINETUNE = ["tests/training/test_values438_finetune.py"]
NEW_IAMONDB = ["tests/data/test_values438_iamondb.py"]
NEW_FUNCTIONAL = ["tests/model/test_values438_functional.py"]
NEW_HEADS = ["tests/model/test_values438_heads.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_FINETUNE = ["tests/training/test_values118_finetune.py", "tests/training/test_values145_finetune_lock.py",
                "tests/training/test_values14_finetune.py", "tests/training/test_values180_setup_finetune.py",
                "tests/training/test_values248_evaluation_finetune.py", "tests/training/test_values278_finetune.py",
                "tests/training/test_values326_evaluation_finetune.py",
                "tests/training/test_values352_evaluation_finetune.py",
                "tests/training/test_values373_progress_finetune.py", "tests/training/test_values63_finetune.py",
                "tests/training/test_values95_finetune.py", "tests/training/test_values_finetune.py",
                "tests/training/test_finetune.py"]
OLD_IAMONDB = ["tests/data/test_values427_iamondb.py", "tests/data/test_values111_iamondb.py",
               "tests/data/test_values135_iamondb.py", "tests/data/test_values15_iamondb.py",
               "tests/data/test_values170_iamondb.py", "tests/data/test_values206_iamondb.py",
               "tests/data/test_values232_iamondb.py", "tests/data/test_values249_iamondb_files.py",
               "tests/data/test_values265_iamondb_points.py", "tests/data/test_values280_iamondb_xml.py",
               "tests/data/test_values307_iamondb_forms.py", "tests/data/test_values324_iamondb_lines.py",
               "tests/data/test_values350_iamondb_xml.py", "tests/data/test_values366_iamondb_lists.py",
               "tests/data/test_values403_iamondb.py", "tests/data/test_values44_iamondb.py",
               "tests/data/test_values59_iamondb.py", "tests/data/test_values81_iamondb.py",
               "tests/data/test_values89_iamondb.py", "tests/data/test_values_iamondb.py",
               "tests/data/test_values9_iamondb.py"]
OLD_FUNCTIONAL = ["tests/model/test_values51_functional.py", "tests/model/test_functional.py",
                  "tests/model/test_values13_functional.py", "tests/model/test_values148_functional.py",
                  "tests/model/test_values169_functional.py", "tests/model/test_values16_functional.py",
                  "tests/model/test_values204_functional.py", "tests/model/test_values22_functional.py",
                  "tests/model/test_values234_functional.py", "tests/model/test_values252_functional.py",
                  "tests/model/test_values310_functional.py", "tests/model/test_values343_functional.py",
                  "tests/model/test_values364_functional.py", "tests/model/test_values384_functional.py",
                  "tests/model/test_values77_functional.py"]
OLD_HEADS = ["tests/model/test_values108_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values129_heads.py", "tests/model/test_values12_heads.py",
             "tests/model/test_values151_heads.py", "tests/model/test_values166_heads.py",
             "tests/model/test_values16_heads.py", "tests/model/test_values199_heads.py",
             "tests/model/test_values223_heads.py", "tests/model/test_values235_heads.py",
             "tests/model/test_values250_heads.py", "tests/model/test_values256_heads.py",
             "tests/model/test_values292_heads.py", "tests/model/test_values310_heads.py",
             "tests/model/test_values33_heads.py", "tests/model/test_values343_heads.py",
             "tests/model/test_values364_heads.py", "tests/model/test_values381_heads.py",
             "tests/model/test_values428_heads.py", "tests/model/test_values48_heads.py",
             "tests/model/test_values57_heads.py", "tests/model/test_values67_heads.py",
             "tests/model/test_values_heads.py", "tests/test_values150_reference_heads.py",
             "tests/test_values176_reference_heads.py", "tests/test_values191_reference_heads.py",
             "tests/test_values288_reference_heads.py", "tests/test_values304_reference_heads.py",
             "tests/test_values330_reference_heads.py", "tests/test_values355_reference_heads.py"]

RECORD = 'return {"path": str(self.given), "step": int(m.get("step", 0)), "best": bool(m.get("best")),'
SHOWN = 'shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")'
INNER = "inner = (last > 0) & (last < T) & np.any(dc_n != 0, axis=1)"
CTC_MEAN = 'return {"loss": sums["loss"] / max(count, 1), "cer": sums["cer"] / max(sums.get("chars", 0), 1)}'

MUTANTS = [
    dict(name="v438-init-record-step-1-when-unsaid", file=FINETUNE, old=RECORD,
         new=RECORD.replace('m.get("step", 0)', 'm.get("step", 1)'), tests=NEW_FINETUNE + OLD_FINETUNE,
         why="a checkpoint that names no update is recorded as update 1 (the sample's rnd8-03)"),
    dict(name="v438-init-record-best-when-unsaid", file=FINETUNE, old=RECORD,
         new=RECORD.replace('m.get("best")', 'm.get("best", True)'), tests=NEW_FINETUNE + OLD_FINETUNE,
         why="a checkpoint that does not say it is a best one is recorded as its run's best"),
    dict(name="v438-iam-missing-dots-at-three", file=IAMONDB, old=SHOWN,
         new=SHOWN.replace("len(missing) > 3", "len(missing) >= 3"), tests=NEW_IAMONDB + OLD_IAMONDB,
         why="three missing entries, all shown, are followed by ', ...' (the sample's rnd8-07)"),
    dict(name="v438-iam-missing-two-shown", file=IAMONDB, old=SHOWN,
         new=SHOWN.replace("missing[:3]", "missing[:2]"), tests=NEW_IAMONDB + OLD_IAMONDB,
         why="the sentence shows two of the missing entries where it promises three"),
    dict(name="v438-dc-seed-on-a-one-step-row-taken", file=FUNCTIONAL, old=INNER,
         new=INNER.replace("last > 0", "last > 1"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="a dL/dc_n seed on a row of one step (of more) is taken as if c_n were that row's c0 (rnd8-10)"),
    dict(name="v438-dc-seed-on-a-full-row-refused", file=FUNCTIONAL, old=INNER,
         new=INNER.replace("last < T", "last <= T"), tests=NEW_FUNCTIONAL + OLD_FUNCTIONAL,
         why="a seed on a row that runs all T steps, the case the kernels take, is refused"),
    dict(name="v438-ctc-loss-halved-for-one-sequence", file=HEADS, old=CTC_MEAN,
         new=CTC_MEAN.replace("max(count, 1)", "max(count, 2)"), tests=NEW_HEADS + OLD_HEADS,
         why="a batch of one scored sequence has its loss halved (the sample's rnd8-26)"),
    dict(name="v438-ctc-cer-halved-without-characters", file=HEADS, old=CTC_MEAN,
         new=CTC_MEAN.replace('max(sums.get("chars", 0), 1)', 'max(sums.get("chars", 0), 2)'),
         tests=NEW_HEADS + OLD_HEADS, why="without characters the error sum is halved, not divided by 1"),
]
