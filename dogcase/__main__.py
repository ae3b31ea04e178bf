import sys

from dogcase.cli import main

sys.exit(main())
