"""plateau's long jobs on a Ray cluster: `python -m plateau.cluster JOB ...`, JOB one of `tournament`, `match`,
`solve`, `check`, `datagen`, `spsa` (docs/cluster.md).

Modules: `driver` (the command: flags, Ray, the loop that writes each finished game at once), `files` (the results
and record files shared with `plateau tournament`, and what is left to play), `tasks` (what a Ray worker runs: one
game pair), `matches` (the match: its game pairs as tasks, the record file, the SPRT), `solve` (the split solve,
Breakthrough's or Qubic's: a group of root moves, or of the loser's answers, per task), `check` (Breakthrough's split
proof check), `datagen` (self-play data: a chunk of games per task), `spsa` (SPSA: the game pairs of one iteration as
tasks, the checkpoint after each iteration), `live` (the `RESULTS.live` file of the games in progress, from a small
actor the tasks tell). Ray is imported only by `driver`, `tasks`, `matches`, `solve`, `check`, `datagen`, `spsa`
(when they run) and `live`; `import plateau` never needs it.
"""
