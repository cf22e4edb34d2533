"""`python -m timelord` is the `timelord` command."""

import sys

from timelord.cli.main import main

sys.exit(main())
