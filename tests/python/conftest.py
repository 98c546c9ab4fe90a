# Shared by the Python module's tests: where the sources and the reference-game writer are
# (set by ctest; tests/CMakeLists.txt), and a reference game as the C++ API plays it.
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("QUAX_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CHECKPOINTS = SOURCE_DIR / "checkpoints"


def reference_game(variant, size, seed):
    """A random game of the C++ API: per ply the legal actions, net-frame mask, planes, move."""
    out = subprocess.run([os.environ["QUAX_REFERENCE_GAMES"], variant, str(size), str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.fixture
def source_dir():
    return SOURCE_DIR
