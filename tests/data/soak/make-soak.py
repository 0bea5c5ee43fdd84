#!/usr/bin/env python3
"""Writes the soak level (soak-10k.json) and its input script (soak-10k.input).

About 10,000 agents of every family in seven groups, 68 walls and 120 obstacles, a player
steered round the level and two squads sent to new targets over 100,000 steps. The level is
random but seeded: running this again writes the same files. `shoal-cli run` of the whole
length is the soak the runtime's no-crossing promise is measured on (docs/cli.md); the test
suite runs its first steps.
"""
import json
import math
import random

rng = random.Random(20261201)
HALF = 120.0
STEPS = 100000


def r2(v):
    return round(v, 2)


def spot(margin=5.0):
    return [r2(rng.uniform(-HALF + margin, HALF - margin)), r2(rng.uniform(-HALF + margin, HALF - margin))]


walls = []
for _ in range(68):
    x, y = spot(8.0)
    points = [[x, y]]
    for _ in range(rng.choice([1, 1, 2, 3])):
        a = rng.uniform(0, 2 * math.pi)
        length = rng.uniform(4.0, 18.0)
        x = min(HALF - 2, max(-HALF + 2, x + length * math.cos(a)))
        y = min(HALF - 2, max(-HALF + 2, y + length * math.sin(a)))
        points.append([r2(x), r2(y)])
    walls.append({"closed": False, "points": points})

obstacles = []
for k in range(120):
    x, y = spot(6.0)
    if k % 3 == 0:
        obstacles.append({"shape": "circle", "center": [x, y], "radius": r2(rng.uniform(0.8, 3.5))})
    else:
        w, h = rng.uniform(1.0, 4.0), rng.uniform(1.0, 4.0)
        a = rng.uniform(0, math.pi)
        c, s = math.cos(a), math.sin(a)
        corners = [(-w, -h), (w, -h), (w, h), (-w, h)]
        obstacles.append({"shape": "polygon", "points": [[r2(x + c * px - s * py), r2(y + s * px + c * py)] for px, py in corners]})


def area(cx, cy, hw, hh):
    return {"min": [r2(cx - hw), r2(cy - hh)], "max": [r2(cx + hw), r2(cy + hh)]}


groups = [
    {"name": "school", "kind": "fishSchool", "spawn": dict(area(-60, -60, 30, 30), count=1499)},
    {"name": "hunters", "kind": "swarm", "spawn": dict(area(60, 60, 35, 35), count=2500)},
    {"name": "red squad", "kind": "tankSquad", "spawn": dict(area(-70, 60, 40, 40), count=350), "target": [-20, 20]},
    {"name": "blue squad", "kind": "tankSquad", "spawn": dict(area(70, -60, 40, 40), count=350), "target": [20, -20]},
    {"name": "convoy", "kind": "leaderFollow", "spawn": dict(area(0, 0, 30, 30), count=2050)},
    {"name": "raiders", "kind": "swarm", "chase": "convoy", "spawn": dict(area(0, 80, 35, 25), count=2950)},
    {"name": "worms", "kind": "worm", "spawn": dict(area(0, -95, 25, 15), count=300)},
]

scene = {
    "format": "shoal-scene",
    "version": 3,
    "name": "Soak: 10,000 agents, 68 walls, 120 obstacles",
    "bounds": {"min": [-HALF, -HALF], "max": [HALF, HALF]},
    "simulation": {"dt": 1.0 / 60.0, "seed": 7},
    "player": {"enabled": True, "group": "school", "position": [-60, -60], "heading": 0},
    "walls": walls,
    "obstacles": obstacles,
    "pickups": [],
    "groups": groups,
}
with open("soak-10k.json", "w") as f:
    json.dump(scene, f, indent=1)
    f.write("\n")

lines = ["# The soak's input: the player swims to a new point every 4 s, and the squads get a",
         "# new target every 25 s (written by make-soak.py)."]
for step in range(0, STEPS, 240):
    x, y = spot(10.0)
    lines.append(f"{step} pointer {x} {y} down")
    if step % 1500 == 0 and step > 0:
        for name in ("red squad", "blue squad"):
            tx, ty = spot(15.0)
            lines.append(f'{step} target "{name}" {tx} {ty}')
with open("soak-10k.input", "w") as f:
    f.write("\n".join(lines) + "\n")
