# The examples in examples/ run and do what they say.
import json
import subprocess
import sys

from conftest import SOURCE_DIR


def run_example(name, *args):
    out = subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / name), *args], cwd=SOURCE_DIR,
                         check=True, capture_output=True, text=True, timeout=600).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_the_shipped_5x5_model_beats_uct():
    result = run_example("play_vs_uct.py", "--games", "4", "--sims", "100", "--uct", "300")
    assert result["games"] == 4 and result["model_wins"] >= 3


def test_a_tiny_policy_learns_from_vector_env_observations():
    result = run_example("train_tiny_policy.py", "--steps", "30", "--epochs", "25")
    assert result["positions"] == 64 * 30
    assert result["cross_entropy_after"] < 0.7 * result["cross_entropy_before"]
    assert result["agreement"] > 2 * result["random_agreement"]
