# Starts and stops `quax serve` for the web tests: on a free port (--port 0, read from its
# first line), serving the shipped checkpoints, from the source directory. The page is the
# copy compiled into the binary, unless QUAX_WEB_DIR names a directory to serve it from
# (`--web`): the tests of an edited web/ without a rebuild (QUAX_WEB_DIR=web).
import os
import signal
import subprocess
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))
QUAX = os.environ.get("QUAX_BINARY", str(SOURCE_DIR / "build" / "quax"))
WEB_DIR = os.environ.get("QUAX_WEB_DIR")


def start_server(extra_args=()):
    web = ["--web", str(SOURCE_DIR / WEB_DIR)] if WEB_DIR else []  # relative: to the source directory
    process = subprocess.Popen([QUAX, "serve", "--port", "0", "--models", "checkpoints", *web, *extra_args],
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
