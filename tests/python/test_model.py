# quax.load_model and quax.Model against torch.jit.load of the same shipped file.
import json
import re

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
    # A zero-stride view of a billion positions (once a SIGSEGV: the failed copy was not
    # checked) is refused before any copy is asked for.
    huge = np.broadcast_to(obs, (10**9,) + obs.shape[1:])
    with pytest.raises(ValueError, match="a batch of 1000000000 positions; at most 65536"):
        model.evaluate(huge, np.broadcast_to(mask, (10**9,) + mask.shape[1:]))
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
    assert model.sizes == [11, 9]  # the primary size first
    for size in (7, 9, 11, 13):
        game = model.game(size)
        policy, value = model.evaluate(game.observation()[None], game.net_legal_mask()[None])
        assert policy.shape == (1, game.num_actions) and -1 <= value[0] <= 1


def model_with_description(tmp_path, name, **changes):
    """A copy of quax-5.pt whose quax.json has `changes` (what a damaged or hand-made file holds)."""
    extra = {"quax.json": ""}
    module = torch.jit.load(str(CHECKPOINTS / "quax-5.pt"), map_location="cpu", _extra_files=extra)
    description = json.loads(extra["quax.json"])
    description.update(changes)
    path = str(tmp_path / name)
    torch.jit.save(module, path, _extra_files={"quax.json": json.dumps(description)})
    return path


@pytest.mark.parametrize("changes,message", [
    ({"size": 0}, "size 0 is out of range for quax"), ({"size": -7}, "size -7 is out of range"),
    ({"size": 1000}, "size 1000 is out of range"), ({"size": 2147483647}, "size 2147483647 is out of range"),
    ({"sizes": [5, 1000]}, "sizes: size 1000 is out of range"), ({"step": -1}, "step -1 is not in"),
    ({"num_actions": 3}, "num_actions 3, where its game has 77")])
def test_a_description_outside_its_variants_rules_raises(tmp_path, changes, message):
    # Before the check each of the sizes crashed the interpreter (SIGSEGV) building the board.
    path = model_with_description(tmp_path, "bad.pt", **changes)
    with pytest.raises(ValueError, match=re.escape(message)) as error:
        quax.load_model(path)
    assert path in str(error.value) and "\n" not in str(error.value)


class OneRow(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.zeros([1, 77]), torch.zeros([1])


class EightRows(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.zeros([8, 77]), torch.zeros([8])


class ThreeDimensions(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.zeros([x.size(0), 77, 2]), torch.zeros([x.size(0)])


class OneTensor(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.zeros([x.size(0), 77])


def scripted_model(tmp_path, name, module):
    """`module` scripted, with the description of quax-5.pt: a model file for quax 5x5."""
    extra = {"quax.json": ""}
    torch.jit.load(str(CHECKPOINTS / "quax-5.pt"), map_location="cpu", _extra_files=extra)
    path = str(tmp_path / name)
    torch.jit.save(torch.jit.script(module), path, _extra_files=extra)
    return path


@pytest.mark.parametrize("module,message", [
    (OneRow, "gives policy logits [1, 77] and value [1]; a batch of 8 positions of 5x5 needs"),
    (ThreeDimensions, "gives policy logits [8, 77, 2] and value [8]"),  # was "non-finite on -32 of 8"
    (OneTensor, "gives a Tensor, not a tuple")])  # was LibTorch's INTERNAL ASSERT FAILED
def test_outputs_that_do_not_fit_the_batch_are_refused_at_load(tmp_path, module, message):
    path = scripted_model(tmp_path, "bad.pt", module())
    with pytest.raises(ValueError, match=re.escape(message)) as error:
        quax.load_model(path)
    assert path in str(error.value) and "\n" not in str(error.value)


def test_outputs_sized_for_the_load_probe_alone_are_refused_at_evaluation(tmp_path):
    # Eight rows whatever the batch passes the load probe (8 positions); evaluating 20,000
    # positions read 20,000 rows out of 8 (SIGSEGV), and 4 positions returned garbage.
    model = quax.load_model(scripted_model(tmp_path, "eight.pt", EightRows()))
    game = quax.Game("quax", 5)
    for count in (20_000, 4):
        obs = np.repeat(game.observation()[None], count, axis=0)
        masks = np.repeat(game.net_legal_mask()[None], count, axis=0)
        with pytest.raises(RuntimeError, match=re.escape("gives policy logits [8, 77] and value [8]; a batch of %d" % count)):
            model.evaluate(obs, masks)


def test_device_keyword():
    # Where the network runs: cpu by default; auto is the CPU where LibTorch sees no GPU, and
    # the outputs are the same numbers wherever the model was placed on the CPU.
    path = str(CHECKPOINTS / "quax-5.pt")
    model = quax.load_model(path)
    assert model.device == "cpu"
    on_cpu = quax.load_model(path, device="cpu")
    auto = quax.load_model(path, device="auto")
    assert auto.device in ("cpu", "cuda:0")
    assert auto.device == ("cuda:0" if torch.cuda.is_available() else "cpu")
    games = random_positions("quax", 5, 8, seed=3)
    obs = np.stack([g.observation() for g in games])
    masks = np.stack([g.net_legal_mask() for g in games])
    policy, value = model.evaluate(obs, masks)
    policy2, value2 = on_cpu.evaluate(obs, masks)
    assert np.array_equal(policy, policy2) and np.array_equal(value, value2)
    with pytest.raises(ValueError, match=re.escape("device: expected cpu, cuda, cuda:N or auto, got 'gpu'")):
        quax.load_model(path, device="gpu")
    with pytest.raises(ValueError, match=re.escape("device cuda:1023: ")):
        quax.load_model(path, device="cuda:1023")
    # A search over a model named by its path takes the keyword too.
    with pytest.raises(ValueError, match=re.escape("device: expected cpu, cuda, cuda:N or auto, got 'tpu'")):
        quax.Search(path + ":sims=8", device="tpu")
    game = quax.Game("quax", 5)
    assert game.is_legal(quax.Search(path + ":sims=8", device="cpu").best_action(game))
    # A loaded model runs where it was loaded: another device is refused, not ignored.
    assert quax.Search(model, device="cpu").best_action(game) >= 0
    with pytest.raises(ValueError, match=re.escape("device cuda:99")):
        quax.Search(model, device="cuda:99")
    # A bool is not a number of simulations.
    with pytest.raises(TypeError, match="simulations must be an integer, not bool"):
        quax.Search(model, simulations=True)
