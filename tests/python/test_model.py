# quax.load_model and quax.Model against torch.jit.load of the same shipped file.
import numpy as np
import pytest
import torch

import quax
from conftest import CHECKPOINTS


def random_positions(variant, size, count, seed):
    rng = np.random.default_rng(seed)
    games = []
    while len(games) < count:
        game = quax.Game(variant, size)
        for _ in range(int(rng.integers(0, size * size // 2))):
            if game.is_over:
                break
            game.apply(int(rng.choice(game.legal_actions())))
        if not game.is_over:
            games.append(game)
    return games


@pytest.mark.parametrize("name,variant,size", [("quax-5.pt", "quax", 5), ("quady-9.pt", "quady", 9),
                                               ("stymie-5.pt", "stymie", 5), ("quax-11.pt", "quax", 11)])
def test_policy_and_value_equal_torch_jit_load(name, variant, size):
    path = str(CHECKPOINTS / name)
    model = quax.load_model(path)
    assert model.variant == variant and model.precision == "fp32"
    assert model.description["variant"] == variant and model.description.get("sizes", [model.size]) == model.sizes  # older files: their one size
    games = random_positions(variant, size, 16, seed=7)
    obs = np.stack([g.observation() for g in games])
    masks = np.stack([g.net_legal_mask() for g in games])
    policy, value = model.evaluate(obs, masks)
    logits, value2 = model.evaluate(obs, masks, logits=True)
    assert np.array_equal(value, value2)

    extra = {"quax.json": ""}
    module = torch.jit.load(path, map_location="cpu", _extra_files=extra)
    module.eval()
    with torch.no_grad():
        want_logits, want_value = module(torch.from_numpy(obs))
    want_logits = want_logits.masked_fill(~torch.from_numpy(masks), float("-inf"))
    want_policy = torch.softmax(want_logits, dim=1).numpy()
    assert policy.shape == masks.shape and value.shape == (16,)
    assert np.abs(policy - want_policy).max() < 1e-4
    assert np.abs(value - want_value.numpy()).max() < 1e-4
    assert np.allclose(policy.sum(axis=1), 1.0, atol=1e-5) and not policy[~masks].any()
    assert np.abs(logits[masks] - want_logits.numpy()[masks]).max() < 1e-3


def test_bad_inputs_raise_a_clear_error(tmp_path):
    model = quax.load_model(str(CHECKPOINTS / "quax-5.pt"))
    game = model.game()
    obs, mask = game.observation()[None], game.net_legal_mask()[None]
    with pytest.raises(ValueError, match="dtype float64"):
        model.evaluate(obs.astype(np.float64), mask)
    with pytest.raises(ValueError, match="dimensions"):
        model.evaluate(obs[0], mask)
    with pytest.raises(ValueError, match="planes"):
        model.evaluate(obs[:, :3], mask)
    with pytest.raises(ValueError, match="masks: shape"):
        model.evaluate(obs, mask[:, :-1])
    with pytest.raises(ValueError, match="no legal action"):
        model.evaluate(obs, np.zeros_like(mask))
    with pytest.raises(FileNotFoundError):
        quax.load_model(str(tmp_path / "missing.pt"))
    cut = tmp_path / "cut.pt"
    cut.write_bytes((CHECKPOINTS / "quax-5.pt").read_bytes()[:3000])
    with pytest.raises(ValueError, match="cut.pt"):
        quax.load_model(str(cut))
    with pytest.raises(ValueError, match="precision"):
        quax.load_model(str(CHECKPOINTS / "quax-5.pt"), precision="fp8")


def test_any_size_of_the_variant_evaluates():
    model = quax.load_model(str(CHECKPOINTS / "quax-11.pt"))
    assert model.sizes == [7, 9, 11]
    for size in (7, 9, 11, 13):
        game = model.game(size)
        policy, value = model.evaluate(game.observation()[None], game.net_legal_mask()[None])
        assert policy.shape == (1, game.num_actions) and -1 <= value[0] <= 1
