"""One module per ``lnrnn`` subcommand; shared options live in ``options``."""
