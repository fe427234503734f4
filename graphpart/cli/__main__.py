"""``python -m graphpart.cli``."""

import sys

from .main import main

sys.exit(main())
