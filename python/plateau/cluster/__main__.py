"""`python -m plateau.cluster JOB ...`: see `plateau.cluster.driver`."""

import sys

from .driver import main

sys.exit(main(sys.argv[1:]))
