#!/usr/bin/env python3
"""Trains a tiny PyTorch policy on observations from quax.VectorEnv: it learns to imitate a
shipped model's policy (distillation) on positions of random games.

    PYTHONPATH=build/python python3 examples/train_tiny_policy.py [--teacher quax-5.pt]
        [--steps 40] [--epochs 30]

Prints the held-out cross-entropy to the teacher before and after training and how often
the student's top move is the teacher's; the last line is JSON for scripts.
"""
import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F

import quax


def collect(env, teacher, steps):
    """Positions of random play, each with the legal mask and the teacher's policy."""
    observations, masks, targets = [], [], []
    obs, info = env.reset()
    for _ in range(steps):
        policy, _ = teacher.evaluate(obs, info["action_mask"])
        observations.append(obs)
        masks.append(info["action_mask"])
        targets.append(policy)
        obs, _, _, _, info = env.step(env.sample_actions())
    return (torch.from_numpy(np.concatenate(observations)), torch.from_numpy(np.concatenate(masks)),
            torch.from_numpy(np.concatenate(targets)))


class TinyPolicy(torch.nn.Module):
    def __init__(self, planes, size, actions):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(planes, 32, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(32, 32, 3, padding=1)
        self.head = torch.nn.Linear(32 * size * size, actions)

    def forward(self, x):
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        return self.head(x.flatten(1))


def masked_log_softmax(logits, mask):
    return F.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)


def cross_entropy(model, obs, mask, target):
    with torch.no_grad():
        return -(target * masked_log_softmax(model(obs), mask)).sum(1).mean().item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teacher", default="quax-5.pt")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=40, help="environment steps of collection")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    teacher = quax.load_model(args.teacher)
    env = quax.VectorEnv(teacher.variant, teacher.size, num_envs=args.envs, seed=args.seed)
    obs, mask, target = collect(env, teacher, args.steps)
    split = len(obs) * 4 // 5
    train, test = slice(0, split), slice(split, None)
    student = TinyPolicy(obs.shape[1], obs.shape[2], mask.shape[1])
    before = cross_entropy(student, obs[test], mask[test], target[test])
    optimizer = torch.optim.Adam(student.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        for batch in torch.randperm(split).split(128):
            loss = -(target[batch] * masked_log_softmax(student(obs[batch]), mask[batch])).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    after = cross_entropy(student, obs[test], mask[test], target[test])
    with torch.no_grad():
        chosen = masked_log_softmax(student(obs[test]), mask[test]).argmax(1)
    agreement = (chosen == target[test].argmax(1)).float().mean().item()
    random_agreement = (1.0 / mask[test].sum(1).float()).mean().item()  # a uniformly random legal move
    print("%d positions (%d held out); cross-entropy to the teacher %.3f -> %.3f" % (len(obs), len(obs) - split, before, after))
    print("top move agrees with the teacher's: %.1f%% (a random legal move: %.1f%%)" % (100 * agreement, 100 * random_agreement))
    print(json.dumps({"positions": len(obs), "cross_entropy_before": before, "cross_entropy_after": after,
                      "agreement": agreement, "random_agreement": random_agreement}))


if __name__ == "__main__":
    main()
