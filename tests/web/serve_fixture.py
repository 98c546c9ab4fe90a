# Starts and stops `quax serve` for the web tests: on a free port (--port 0, read from its
# first line), serving the shipped checkpoints, from the source directory.
import os
import signal
import subprocess
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))
QUAX = os.environ.get("QUAX_BINARY", str(SOURCE_DIR / "build" / "quax"))


def start_server(extra_args=()):
    process = subprocess.Popen([QUAX, "serve", "--port", "0", "--models", "checkpoints", *extra_args],
                               cwd=SOURCE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("quax serve: http://"):
        process.kill()
        raise RuntimeError("quax serve did not start: %r %s" % (line, process.stderr.read()))
    return {"process": process, "port": int(line.rsplit(":", 1)[1].strip(" /\n")), "url": line.split(": ", 1)[1].strip()}


def stop_server(server):
    """Ctrl-C, as a user stops it; returns the exit code."""
    server["process"].send_signal(signal.SIGINT)
    return server["process"].wait(timeout=30)
