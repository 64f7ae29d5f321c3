"""Planted bugs, round 263 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the output checks (lnrnn/files.py) and the commands that write (lnrnn/commands/sample.py,
lnrnn/commands/data.py, lnrnn/commands/train.py): an output of blanks refused as '--out' whatever its option;
a path going up ('..') from a missing folder not refused (the folder before the step looked up one part short);
an output under a file offered 'another --out'; the name limit read as PC_PATH_MAX (4096) instead of NAME_MAX;
a link to nowhere where a folder would be made looked for one folder up (never found); a write the folder
refuses (EACCES) told to free space; data mnist's --dest under a file naming --dest instead of the file; its
--mirror refusal unquoted; a prime past the cap counted without its thousands separator; sample's progress bar
counting one sample's points; --seed not reaching the judge; the .npz's cer holding each line's travel; the
judged lines' file announced under the reader's folder; train's --bptt alias dropped.

14 mutants. Against the old targeted files alone: 4 of 14 caught; they missed a blank name refused as '--out', a
refused write told to free space, --dest naming itself as the file in the way, --mirror unquoted, a prime's count
without its thousands separator, the progress bar's total of one sample, --seed not reaching the judge, the .npz's
cer holding travel, the judged file announced under the reader's folder, and the --bptt alias. The new value tests
catch every mutant on their own (checked with the old files taken off the lists): test_values263_output_checks
(refusals of --npz and --judge-out by path shape word for word, exit 2, with the run never read and nothing written:
blanks, a trailing separator, a folder, a file in the way, '..' from a missing folder at one and three parts deep, a
link to nowhere, a name of NAME_MAX + 1 bytes; a prime of 20,001 points; a write answered EACCES; the progress total
at --count 1 and 3 against steps x count; --seed 7 at the judge and each judged line's fields in the .npz and the
JSON record as written out in the test), test_values263_train_data (--tbptt 5 and --bptt 7 in the trainer's config;
the --mirror and --dest refusals word for word with nothing downloaded or made). Left out as equivalent:
missing_before_up's `or (os.sep if ...)` fallback made os.curdir (a head that is empty is the root or the working
folder, both existing, so neither is ever returned). Left out as not cheaply reached: prepare_output_file's makedirs
refusal (the check before it refuses every path where makedirs would fail, short of a race).

    python tests/mutants/run.py --only 'v263-*'
"""
FILES = "lnrnn/files.py"
SAMPLE = "lnrnn/commands/sample.py"
DATA = "lnrnn/commands/data.py"
TRAIN = "lnrnn/commands/train.py"

T_OUT = "tests/commands/test_values263_output_checks.py::"
T_TD = "tests/commands/test_values263_train_data.py::"
OLD_OUT = ["tests/commands/test_values245_output_checks.py", "tests/commands/test_values_output_checks.py",
           "tests/commands/test_values229_files_predict_io_paths.py", "tests/commands/test_values221_sample_cli.py",
           "tests/commands/test_values237_train_sample.py"]
OLD_TD = ["tests/commands/test_values245_train_data.py", "tests/commands/test_values237_data.py",
          "tests/commands/test_values237_train_sample.py"]

MUTANTS = [
    # ---- the output checks: lnrnn/files.py ----
    dict(name="v263-files-blank-name-says-out", file=FILES,
         old='        raise UserError(f"{option} {text!r} names no file; give a file name.")',
         new='        raise UserError(f"--out {text!r} names no file; give a file name.")',
         tests=[T_OUT + "test_an_npz_of_blanks_names_no_file_under_its_own_option"] + OLD_OUT,
         why="an --npz (or --judge-out) of blanks is refused as '--out', an option the user may not have given"),
    dict(name="v263-files-up-step-head-one-short", file=FILES,
         old="            head = os.sep.join(parts[:i]) or (os.sep if text.startswith(os.sep) else os.curdir)",
         new="            head = os.sep.join(parts[:i - 1]) or (os.sep if text.startswith(os.sep) else os.curdir)",
         tests=[T_OUT + "test_an_npz_going_up_from_a_missing_folder_names_that_folder"] + OLD_OUT,
         why="the folder a '..' leaves is looked up one part short: 'nope/../p.npz' passes the check and fails at "
             "the write, after sampling"),
    dict(name="v263-files-file-in-way-offers-out", file=FILES,
         old='                        f"another {option}.")\n    unmade_names',
         new='                        "another --out.")\n    unmade_names',
         tests=[T_OUT + "test_an_npz_under_a_file_is_refused_offering_another_npz"] + OLD_OUT,
         why="an --npz under a file is told to choose 'another --out'"),
    dict(name="v263-files-name-limit-path-max", file=FILES,
         old='        limit = os.pathconf(probe, "PC_NAME_MAX")',
         new='        limit = os.pathconf(probe, "PC_PATH_MAX")',
         tests=[T_OUT + "test_an_npz_name_past_the_limit_is_refused_by_its_bytes"] + OLD_OUT,
         why="names are measured against PATH_MAX (4096): a 256-byte name passes the check and fails at the write"),
    dict(name="v263-files-link-looked-for-one-up", file=FILES,
         old="        here = os.path.join(probe, *names[:k + 1])",
         new="        here = os.path.join(probe, *names[:k])",
         tests=[T_OUT + "test_an_npz_under_a_link_to_nowhere_names_the_link"] + OLD_OUT,
         why="a link to nowhere where a folder would be made is looked for one folder up: never found, the write "
             "fails after the work"),
    dict(name="v263-files-denied-hint-says-space", file=FILES,
         old='        return "make the folder writable"',
         new='        return "free some space there"',
         tests=[T_OUT + "test_a_write_the_folder_refuses_says_to_make_it_writable"] + OLD_OUT,
         why="a write refused by the folder (EACCES, EPERM, EROFS) is told to free space"),
    # ---- lnrnn data mnist: lnrnn/commands/data.py ----
    dict(name="v263-data-file-in-way-names-dest", file=DATA,
         old='        raise UserError(f"{probe} is a file, not a folder, so --dest {dest} cannot be made there; ',
         new='        raise UserError(f"{dest} is a file, not a folder, so --dest {dest} cannot be made there; ',
         tests=[T_TD + "test_a_dest_under_a_file_names_that_file"] + OLD_TD,
         why="a --dest under a file is refused naming --dest itself as the file, not the file in the way"),
    dict(name="v263-data-mirror-unquoted", file=DATA,
         old='        raise UserError(f"--mirror must be an http:// or https:// URL, not {mirror!r}.")',
         new='        raise UserError(f"--mirror must be an http:// or https:// URL, not {mirror}.")',
         tests=[T_TD + "test_a_mirror_that_is_no_web_address_is_refused_quoted"] + OLD_TD,
         why="the refused --mirror is not quoted (a blank or trailing space one is invisible)"),
    # ---- lnrnn sample: lnrnn/commands/sample.py ----
    dict(name="v263-sample-prime-count-no-thousands", file=SAMPLE,
         old='holds {len(prime_points):,} points, more than the "',
         new='holds {len(prime_points)} points, more than the "',
         tests=[T_OUT + "test_a_prime_past_the_cap_is_counted_in_thousands"] + OLD_OUT,
         why="a prime past the cap is counted as 20001 beside the cap's 20,000"),
    dict(name="v263-sample-progress-one-sample", file=SAMPLE,
         old='    progress = Progress(steps * count, "sample", quiet=quiet, unit="points")',
         new='    progress = Progress(steps, "sample", quiet=quiet, unit="points")',
         tests=[T_OUT + "test_the_progress_bar_counts_every_samples_points"] + OLD_OUT,
         why="the progress bar counts one sample's points: past 100% from the second sample on"),
    dict(name="v263-sample-judge-seed-dropped", file=SAMPLE,
         old="        judged = judge(run, reader, lines, seed=seed)",
         new="        judged = judge(run, reader, lines)",
         tests=[T_OUT + "test_the_judges_seed_fields_and_file_reach_their_places"] + OLD_OUT,
         why="--seed does not reach the judge: the reader's initial states are always seed 0's"),
    dict(name="v263-sample-npz-cer-holds-travel", file=SAMPLE,
         old="                         cer=np.array([j.cer for j in judged]), travel=",
         new="                         cer=np.array([j.travel for j in judged]), travel=",
         tests=[T_OUT + "test_the_judges_seed_fields_and_file_reach_their_places"] + OLD_OUT,
         why="the .npz's cer array holds each line's travel"),
    dict(name="v263-sample-judged-file-names-reader", file=SAMPLE,
         old='        click.echo(f"Wrote the judged lines to {judge_out}.")',
         new='        click.echo(f"Wrote the judged lines to {judge_path}.")',
         tests=[T_OUT + "test_the_judges_seed_fields_and_file_reach_their_places"] + OLD_OUT,
         why="the judged lines' file is announced under the reader's run folder"),
    # ---- lnrnn train: lnrnn/commands/train.py ----
    dict(name="v263-train-bptt-alias-dropped", file=TRAIN,
         old='@click.option("--tbptt", "--bptt", "tbptt", type=int,',
         new='@click.option("--tbptt", "tbptt", type=int,',
         tests=[T_TD + "test_tbptt_and_its_alias_bptt_reach_the_trainer"] + OLD_TD,
         why="--bptt, the option's other name, is refused as no such option"),
]
