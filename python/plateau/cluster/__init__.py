"""plateau's long jobs on a Ray cluster: `python -m plateau.cluster tournament ...` (docs/cluster.md).

Modules: `driver` (the command: flags, Ray, the loop that writes each finished game at once), `files` (the results
and record files shared with `plateau tournament`, and what is left to play), `tasks` (what a Ray worker runs: one
game pair). Ray is imported only by `driver` and `tasks`; `import plateau` never needs it.
"""
