import sys

from tooluse1.cli import main

try:
    raise SystemExit(main())
except BrokenPipeError:  # output piped into `head`: not an error of ours
    sys.stderr.close()
    raise SystemExit(0) from None
