import sys

from kubectl_dra.main import main

sys.exit(main())
