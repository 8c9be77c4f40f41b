"""What each command of `python -m bot` does, one module a command (bot.cli parses and maps errors
to exit codes; these call the library and print)."""
