"""Gunicorn settings for serving DRA Playground (docs/configuration.md: "Running in production").

`gunicorn` run from the project folder reads this file by itself. The
variables below, read strictly like the Django settings, tune it; any other
gunicorn option can still be given on the command line or in GUNICORN_CMD_ARGS.
"""

import os

from playground.env import envint

wsgi_app = "playground.wsgi:application"

# Loopback by default: put a TLS-terminating proxy in front and set BIND
# (e.g. 0.0.0.0:8000 in a container) to listen elsewhere.
bind = [os.environ.get("BIND", "").strip() or "127.0.0.1:8000"]

# Analyses are CPU-bound and run in the worker: one sync worker per core,
# plus one so a core is busy while another worker waits on the database.
workers = envint("WEB_CONCURRENCY", (os.cpu_count() or 1) + 1, minimum=1)
worker_class = "sync"
# A request that runs longer is killed and its worker restarted.
timeout = envint("GUNICORN_TIMEOUT", 30, minimum=1)
graceful_timeout = 30
keepalive = 5
# Recycle workers now and then so memory held by caches stays bounded.
max_requests = envint("GUNICORN_MAX_REQUESTS", 2000, minimum=0)
max_requests_jitter = max_requests // 10

# Request line and header limits (gunicorn's defaults, stated): bodies are
# limited by DATA_UPLOAD_MAX_MEMORY_SIZE in Django.
limit_request_line = 4094
limit_request_fields = 100

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()

# Heartbeat files in memory, not on a disk that may be slow (containers).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# gunicorn's runtime control socket (gunicornc) sits at one path per user, so
# two servers on a machine would fight over it; nothing here uses it.
control_socket_disable = True
