"""Planted bugs, round 367 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CLI commands data mnist (lnrnn/commands/data.py), sample (lnrnn/commands/sample.py), train
(lnrnn/commands/train.py) and their shared options (lnrnn/commands/options.py), nineteenth pass: the default
mirror asked over http; gzip files read with zlib and refused as damaged; a download reading only its first 64 KiB
chunk of a raw file; a URLError's reason shown as the whole exception; the t10k images expected in the training
set's shape (60000, 28, 28); a file already in --dest looked for at --dest itself (never kept, always fetched
again); the .npz's stop_at_last holding the lines' capped flags and its peak_phi their travel; --judge-out
recording seed 0 whatever --seed said; the reader loaded only with --judge-out (--judge alone judging nothing);
train never asking the MPI launcher (a run trained alone under mpiexec without mpi4py); rank 1 of such a launch
printing the error instead of leaving quietly with exit 2; _write_error's arguments swapped (a full disk mid-run
ending in a traceback); the run folder's metavar spelled RUN_DIR in --checkpoint while train --out says
RUN_FOLDER.

14 mutants. Against the old targeted files alone (each mutant's v367 files taken off its list): 8 of 14 caught;
missed: the default mirror over http, verify reading one 64 KiB chunk, the URLError shown whole, the t10k
images expected as (60000, 28, 28), the .npz's stop_at_last from capped and its peak_phi from travel.
The old targeted files: for data mnist test_values_data, test_values9_data, test_values17_data,
test_values37_data, test_values69_data, test_values131_data, test_values208_data, test_values237_data and
test_values322_data_sample; for sample test_values52_sample_cli, test_values69_sample_errors,
test_values99_sample_cli, test_values143_sample_cli and test_values221_sample_cli; for train
test_values_train_command, test_values13_train_command, test_values69_train_options and
test_values143_train_cli; for the shared options test_values_options, test_values32_options_errors,
test_values229_options and test_values271_options_info. The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values367_data (the URL asked without --mirror against
the documented https ossci-datasets copy and the --help default; a URLError and an OSError refused naming the
URL and the reason word for word; a gzipped file of 2 images and a raw one of 100 (78,416 bytes, more than one
chunk) refused naming their shape and the (10000, 28, 28) of the MNIST test set, nothing kept; a verified file
in --dest kept, untouched, while the mirror no longer serves it), test_values367_sample (two judged lines whose
fields all differ: the reader's report printed under its heading with --judge alone; the .npz's read, cer,
travel, stop_at_last and peak_phi in line order; the --judge-out JSON against the writer, reader, update, --bias,
--seed and a summary worked out by hand), test_values367_train_options (under a 2-process launch without
mpi4py: rank 0's one line word for word and rank 1's quiet exit 2, the trainer never reached; a full disk
mid-run one line naming the file, or the run folder, and the resume command; RUN_FOLDER in train --out and in
sample's and eval's --checkpoint). Left out as equivalent: the mirror's trailing slash (rstrip('/') adds it
back); the chunk size of download's read and the progress bar's totals (the bytes written are the same);
mnist's parameters reordered and sample's (click passes them by name); os.replace as os.rename (the same on
POSIX); 'if judged is None' as 'if reader is None' (judged is made exactly when a reader is); --split's default
D.split as None (TrainConfig's default is None). Left out as cosmetic: the options' help texts.

    python tests/mutants/run.py --only 'v367-*'
"""
DATA = "lnrnn/commands/data.py"
SAMPLE = "lnrnn/commands/sample.py"
TRAIN = "lnrnn/commands/train.py"
OPTIONS = "lnrnn/commands/options.py"

C = "tests/commands/"
T_DATA = C + "test_values367_data.py::"
T_SAMPLE = C + "test_values367_sample.py::"
T_TRAIN = C + "test_values367_train_options.py::"
OLD_DATA = [C + f for f in ("test_values_data.py", "test_values9_data.py", "test_values17_data.py",
                            "test_values37_data.py", "test_values69_data.py", "test_values131_data.py",
                            "test_values208_data.py", "test_values237_data.py", "test_values322_data_sample.py")]
OLD_SAMPLE = [C + f for f in ("test_values52_sample_cli.py", "test_values69_sample_errors.py",
                              "test_values99_sample_cli.py", "test_values143_sample_cli.py",
                              "test_values221_sample_cli.py")]
OLD_TRAIN = [C + f for f in ("test_values_train_command.py", "test_values13_train_command.py",
                             "test_values69_train_options.py", "test_values143_train_cli.py")]
OLD_OPTIONS = [C + f for f in ("test_values_options.py", "test_values32_options_errors.py",
                               "test_values229_options.py", "test_values271_options_info.py")]

MUTANTS = [
    # ---- lnrnn data mnist: lnrnn/commands/data.py ----
    dict(name="v367-data-default-mirror-http", file=DATA,
         old='DEFAULT_MIRROR = "https://',
         new='DEFAULT_MIRROR = "http://',
         tests=[T_DATA + "test_the_default_mirror_is_the_ossci_copy_over_https"] + OLD_DATA,
         why="without --mirror the files are asked for over plain http"),
    dict(name="v367-data-gzip-read-with-zlib", file=DATA,
         old="            raw = gzip.decompress(raw)",
         new="            raw = zlib.decompress(raw)",
         tests=[T_DATA + "test_a_gzipped_file_of_two_images_is_refused_naming_the_10000_of_mnist"] + OLD_DATA,
         why="zlib refuses the gzip header: every .gz file is called damaged"),
    dict(name="v367-data-verify-reads-one-chunk", file=DATA,
         old="        raw = f.read()",
         new="        raw = f.read(1 << 16)",
         tests=[T_DATA + "test_a_raw_file_longer_than_one_chunk_is_read_whole"] + OLD_DATA,
         why="verify reads the first 64 KiB only: a raw file longer than that is called truncated"),
    dict(name="v367-data-reason-is-the-whole-error", file=DATA,
         old='        reason = getattr(e, "reason", e)',
         new="        reason = e",
         tests=[T_DATA + "test_a_url_error_names_its_reason_and_an_os_error_itself"] + OLD_DATA,
         why="a failed download shows '<urlopen error ...>' instead of the reason"),
    dict(name="v367-data-t10k-images-shape-of-train", file=DATA,
         old='"t10k-images-idx3-ubyte.gz": ("2646ac647ad5339dbf082846283269ea", (10000, 28, 28),',
         new='"t10k-images-idx3-ubyte.gz": ("2646ac647ad5339dbf082846283269ea", (60000, 28, 28),',
         tests=[T_DATA + "test_a_gzipped_file_of_two_images_is_refused_naming_the_10000_of_mnist",
                T_DATA + "test_a_raw_file_longer_than_one_chunk_is_read_whole"] + OLD_DATA,
         why="the 10k test images are expected in the training set's shape: the genuine file is refused"),
    dict(name="v367-data-present-file-looked-for-at-dest", file=DATA,
         old="        if os.path.isfile(path):",
         new="        if os.path.isfile(dest):",
         tests=[T_DATA + "test_a_verified_file_already_there_is_kept_without_asking"] + OLD_DATA,
         why="a verified file already in --dest is never kept: every run downloads it again"),
    # ---- lnrnn sample: lnrnn/commands/sample.py ----
    dict(name="v367-sample-npz-stop-at-last-from-capped", file=SAMPLE,
         old="stop_at_last=np.array([j.stop_at_last for j in judged]),",
         new="stop_at_last=np.array([j.capped for j in judged]),",
         tests=[T_SAMPLE + "test_the_npz_holds_each_judged_field_under_its_name"] + OLD_SAMPLE,
         why="the .npz's stop_at_last holds whether each line reached the cap"),
    dict(name="v367-sample-npz-peak-phi-from-travel", file=SAMPLE,
         old="peak_phi=np.array([j.peak_phi for j in judged]))",
         new="peak_phi=np.array([j.travel for j in judged]))",
         tests=[T_SAMPLE + "test_the_npz_holds_each_judged_field_under_its_name"] + OLD_SAMPLE,
         why="the .npz's peak_phi holds the lines' travel"),
    dict(name="v367-sample-judge-out-seed-zero", file=SAMPLE,
         old="                           seed=seed)",
         new="                           seed=0)",
         tests=[T_SAMPLE + "test_judge_out_records_the_run_the_reader_bias_seed_and_summary"] + OLD_SAMPLE,
         why="--judge-out records seed 0 whatever --seed was"),
    dict(name="v367-sample-reader-loaded-only-with-judge-out", file=SAMPLE,
         old="    if judge_path is not None:\n        from lnrnn.judge import check_judge",
         new="    if judge_out is not None:\n        from lnrnn.judge import check_judge",
         tests=[T_SAMPLE + "test_judge_without_judge_out_prints_the_report",
                T_SAMPLE + "test_the_npz_holds_each_judged_field_under_its_name"] + OLD_SAMPLE,
         why="--judge without --judge-out loads no reader: nothing is judged or reported"),
    # ---- lnrnn train: lnrnn/commands/train.py ----
    dict(name="v367-train-launcher-never-asked", file=TRAIN,
         old="    group = _group()",
         new="    group = distributed.SINGLE",
         tests=[T_TRAIN + "test_rank_0_without_mpi4py_says_what_to_install",
                T_TRAIN + "test_rank_1_without_mpi4py_exits_2_quietly"] + OLD_TRAIN,
         why="under mpiexec without mpi4py every rank trains the whole run alone, each into the same folder"),
    dict(name="v367-train-rank-exit-on-import-error-only", file=TRAIN,
         old="    except UserError:\n        if distributed.launched_rank() > 0:",
         new="    except ImportError:\n        if distributed.launched_rank() > 0:",
         tests=[T_TRAIN + "test_rank_1_without_mpi4py_exits_2_quietly"] + OLD_TRAIN,
         why="rank 1 prints the launcher error too (and exits 1), instead of leaving it to rank 0"),
    dict(name="v367-train-write-error-arguments-swapped", file=TRAIN,
         old="def _write_error(e, out):",
         new="def _write_error(out, e):",
         tests=[T_TRAIN + "test_a_full_disk_mid_run_is_one_line_with_the_resume_command"] + OLD_TRAIN,
         why="a full disk mid-run ends in an AttributeError traceback instead of the resume line"),
    # ---- shared options: lnrnn/commands/options.py ----
    dict(name="v367-options-run-folder-spelled-run-dir", file=OPTIONS,
         old='RUN_FOLDER = "RUN_FOLDER"',
         new='RUN_FOLDER = "RUN_DIR"',
         tests=[T_TRAIN + "test_run_folder_is_one_spelling_in_train_and_sample"] + OLD_OPTIONS,
         why="--checkpoint says RUN_DIR while train --out, and every help text, say RUN_FOLDER"),
]
