"""The `nacverify` command line (Typer). Thin: parse, call the library, render, exit."""
