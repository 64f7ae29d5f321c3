"""Planted bugs in the counts said in the singular (format: tests/mutants/mutants.py): each sentence that can
give a count of one (a sampler's text of one line, IDX files of one image or one label, sequences of one step,
BatchNorm statistics of one step, an evaluation over one sequence, a KanjiVG folder of one Latin character,
a mixture of one component, a sampled line of one point) with its plural chosen by the wrong count or the
wrong comparison. Caught by tests/test_values_singular.py (the mixture by test_values250_heads, the sampled
line by test_values272_sample_cli), each sentence worked out word for word at one and at two.

    python tests/mutants/run.py --only 'singular-*'
"""
T = "tests/test_values_singular.py::"

MUTANTS = [
    dict(name="singular-sample-lines-by-count", file="lnrnn/sample.py",
         old="line{'s' * (len(lines) != 1)} but count is {count}",
         new="line{'s' * (count != 1)} but count is {count}",
         tests=[T + "test_a_text_of_one_line_with_count_two"],
         why="a text of one line with count 2 is said to hold '1 lines'"),
    dict(name="singular-idx-images-by-labels", file="lnrnn/data/idx.py",
         old="holds {len(images)} image{'s' * (len(images) != 1)} but",
         new="holds {len(images)} image{'s' * (len(labels) != 1)} but",
         tests=[T + "test_idx_files_of_one_image_or_one_label"],
         why="one image beside two labels is '1 images', two beside one '2 image'"),
    dict(name="singular-predict-steps-plural-at-one", file="lnrnn/predict_io.py",
         old="""differs.append(f"they have {T} step{'s' * (T != 1)} where the training sequences had {steps}")""",
         new="""differs.append(f"they have {T} step{'s' * (T != 0)} where the training sequences had {steps}")""",
         tests=[T + "test_sequences_of_one_step_against_the_training_length"],
         why="sequences of one step are said to have '1 steps'"),
    dict(name="singular-bn-steps-singular-at-two", file="lnrnn/model/functional.py",
         old="hold {Ts} step{'s' * (Ts != 1)}, fewer",
         new="hold {Ts} step{'s' * (Ts > 2)}, fewer",
         tests=[T + "test_batchnorm_statistics_of_one_step"],
         why="BatchNorm statistics of two steps are said to hold '2 step'"),
    dict(name="singular-eval-sequences-inverted", file="lnrnn/commands/eval.py",
         old="({n} sequence{'s' * (n != 1)})",
         new="({n} sequence{'s' * (n == 1)})",
         tests=[T + "test_eval_over_one_sequence"],
         why="lnrnn eval says '(1 sequences)' and '(2 sequence)'"),
    dict(name="singular-kanjivg-characters-inverted", file="lnrnn/data/kanjivg.py",
         old="character{'s' * (len(cps) != 1)}; at least 2",
         new="character{'s' * (len(cps) == 1)}; at least 2",
         tests=[T + "test_a_kanjivg_folder_of_one_latin_character"],
         why="a KanjiVG folder of one Latin character is said to hold '1 latin characters'"),
    dict(name="singular-mixture-components-plural-at-one", file="lnrnn/model/heads.py",
         old="component{'s' * (self.M != 1)} has",
         new="component{'s' * (self.M >= 1)} has",
         tests=["tests/model/test_values250_heads.py"],
         why="a mixture of one component with the wrong output count is said to have '1 components'"),
    dict(name="singular-sample-points-by-line-count", file="lnrnn/commands/sample.py",
         old="point{'s' * (sizes != [1])}; {ends}",
         new="point{'s' * (count != 1)}; {ends}",
         tests=["tests/commands/test_values272_sample_cli.py::test_a_line_of_one_point_is_counted_in_the_singular",
                "tests/commands/test_values272_sample_cli.py::"
                "test_one_line_ended_by_the_stop_rule_is_summed_up_in_the_singular"],
         why="one line of text of three points is summed up as '(3 point; ...)'"),
]
