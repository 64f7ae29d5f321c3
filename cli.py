"""Thin shim so ``python cli.py ...`` works from a checkout without installing."""
from lnrnn.cli import main

if __name__ == "__main__":
    main()
