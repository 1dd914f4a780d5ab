import sys

from towerworld.cli import main

sys.exit(main())
