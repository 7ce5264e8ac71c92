"""The `tracker` command's subcommands, a module each group; ``tracker.cli`` reads the
arguments and imports only the module of the command run (see ``tracker.startup``)."""
