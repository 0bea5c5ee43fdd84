#!/usr/bin/env python3
"""Mutation campaign against shoal-cli: structure-aware mutants of a scene, byte-level
corruptions of it, and mutated input scripts, each run under `timeout` and an address-space
limit through `shoal-cli validate` and `shoal-cli run --steps 30`. Prints a table of outcomes
and keeps a reproducer of every bad one (crash, hang, slow, out of memory, exit 1, an exit
without a message). Python 3 standard library only; see docs/architecture.md.

    scripts/mutate [--scenes N] [--bytes N] [--scripts N] [--jobs J] [--seed S] [--out DIR]
    scripts/mutate --smoke        # a bounded run (< 60 s) that fails on any bad outcome
"""

import argparse
import collections
import concurrent.futures
import copy
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SLOW_SECONDS = 5.0
GOOD = ("exit 0", "exit 2 with message")

# Numbers a field is set to: edges of float, double, int and the format's own limits.
EXTREME_NUMBERS = [0, -0.0, 1, -1, 0.5, 1e-7, 1e-45, 1e-320, 16383.999, 16384, 16385, -16385,
                   32768, 1e6, 1e9, 3.4e38, 3.5e38, 1e300, -1e300, 1.7976931348623157e308,
                   2 ** 31 - 1, 2 ** 31, 2 ** 53 + 1, 2 ** 63, 2 ** 64 - 1, -2 ** 63, 1000000,
                   4000001, 36000, 36001, 0.001, 0.1, 0.1000001, 99999]
# Tokens written into the text as they are: not all are JSON, most are refused.
RAW_TOKENS = ["1e400", "-1e400", "1e-400", "NaN", "Infinity", "-Infinity", "1.0", "2e1", "0x10",
              "01", "1.", ".5", "+1", "-", "1e", "9" * 400, "0." + "0" * 400 + "1", "true",
              "null", "\"1\""]
CONTROL = "".join(chr(c) for c in list(range(0, 32)) + [127, 0x85, 0x9b])


class Raw:
    """A token spliced into the serialized text as it is."""

    def __init__(self, text):
        self.text = text


def serialize(value):
    raws = []

    def encode(v):
        if isinstance(v, Raw):
            raws.append(v.text)
            return "\u0001RAW%d\u0001" % (len(raws) - 1)
        if isinstance(v, dict):
            return {k: encode(x) for k, x in v.items()}
        if isinstance(v, list):
            return [encode(x) for x in v]
        return v

    text = json.dumps(encode(value), ensure_ascii=False)
    for i, raw in enumerate(raws):
        text = text.replace('"\\u0001RAW%d\\u0001"' % i, raw)
    return text


def paths(value, prefix=()):
    """The places in the document a mutation may change (the root excluded): 12 levels deep
    at most, and the first 40 items of a list (a list may have been grown to 50,000)."""
    out = []
    if len(prefix) >= 12:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out.append(prefix + (k,))
            out.extend(paths(v, prefix + (k,)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:40]):
            out.append(prefix + (i,))
            out.extend(paths(v, prefix + (i,)))
    return out


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def random_string(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return "".join(rng.choice(CONTROL) for _ in range(rng.randrange(1, 12)))
    if kind == 1:
        return "x" * rng.choice([61, 1000, 100000, 1000000])
    if kind == 2:
        return "a\u0000b\u001b[31mred\u0007" + rng.choice(["", "\ud7ff", "\u2028", "\ufeff"])
    if kind == 3:
        return rng.choice(["", " ", "school", "squad", "swarm", "convoy", "worms", "fishSchool",
                           "tankSquad", "coin", "fish", "polygon", "circle", "#zzzzzz"])
    return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 40)))


def junk(rng, depth=0):
    kind = rng.randrange(7)
    if kind == 0 and depth < 3:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 1 and depth < 3:
        return {random_string(rng)[:20]: junk(rng, depth + 1) for _ in range(rng.randrange(3))}
    if kind == 2:
        depth = rng.choice([10, 60, 64, 65, 200, 5000, 100000])
        return Raw("[" * depth + "0" + "]" * depth)
    if kind == 3:
        return rng.choice(EXTREME_NUMBERS)
    if kind == 4:
        return Raw(rng.choice(RAW_TOKENS))
    if kind == 5:
        return random_string(rng)
    return rng.choice([None, True, False, [], {}])


def mutate_document(doc, rng):
    """One structure-aware change in place; returns a short description."""
    all_paths = paths(doc)
    if not all_paths:
        return "empty"
    path = rng.choice(all_paths)
    parent = get(doc, path[:-1])
    key = path[-1]
    value = parent[key]
    # Weighted towards changes that still load, so the runtime is fed as well as the reader.
    op = rng.choices(range(11), weights=[14, 4, 14, 3, 3, 2, 2, 2, 3, 30, 8])[0]
    where = "/".join(str(p) for p in path)
    numbers = [p for p in all_paths if isinstance(get(doc, p), (int, float))
               and not isinstance(get(doc, p), bool)]
    if op == 9 and numbers:
        np_ = rng.choice(numbers)
        holder = get(doc, np_[:-1])
        old = holder[np_[-1]]
        holder[np_[-1]] = rng.choice([
            old * rng.choice([0, 0.5, 2, 3, 10, 100, 1000, -1]),
            old + rng.uniform(-50, 50), rng.randrange(0, 5000), round(old * 7.3),
            rng.choice(EXTREME_NUMBERS)])
        return "number nudged at " + "/".join(str(p) for p in np_)
    if op == 10:
        groups = doc.get("groups") if isinstance(doc, dict) else None
        if isinstance(groups, list) and groups:
            g = rng.choice([x for x in groups if isinstance(x, dict)] or [None])
            if isinstance(g, dict):
                spawn = g.get("spawn")
                if isinstance(spawn, dict):
                    spawn["count"] = rng.choice([0, 1, 100, 1000, 5000, 20000, 100000, 1000000])
                    return "spawn count of %s set to %s" % (g.get("name"), spawn["count"])
                g["agents"] = [{"position": [rng.uniform(-40, 40), rng.uniform(-25, 25)]}] * \
                    rng.choice([1, 10, 1000, 20000])
                return "agents piled in %s" % g.get("name")
    if op == 0 and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = rng.choice(EXTREME_NUMBERS) * rng.choice([1, 1, -1])
        return "extreme number at " + where
    if op == 1:
        parent[key] = Raw(rng.choice(RAW_TOKENS))
        return "raw token at " + where
    if op == 2:
        lists = [p for p in all_paths if isinstance(get(doc, p), list) and get(doc, p)]
        if lists:
            lp = rng.choice(lists)
            lst = get(doc, lp)
            target = rng.choice([2, 10, 100, 1000, 5000, 20000, 50000])
            item_size = max(1, len(serialize(lst[0])))
            target = min(target, max(2, (60 << 20) // item_size))
            lst.extend(copy.deepcopy(lst[i % len(lst)]) for i in range(target - len(lst)))
            if lp == ("groups",):  # copies of a group need names of their own to load
                for i, g in enumerate(lst):
                    if isinstance(g, dict) and isinstance(g.get("name"), str):
                        g["name"] = "%s %d" % (g["name"], i)
            return "list %s duplicated to %d" % ("/".join(map(str, lp)), target)
    if op == 3 and isinstance(parent, dict):
        del parent[key]
        return "deleted " + where
    if op == 4:
        parent[key] = rng.choice([None, True, "1", [value] if not isinstance(value, list) else {},
                                  {"x": value}, 0, [1, 2, 3], [value, value]])
        return "type swapped at " + where
    if op == 5 and isinstance(value, str) or op == 6:
        parent[key] = random_string(rng)
        return "string at " + where
    if op == 7 and isinstance(parent, dict):
        new_key = rng.choice([key + "x", key.upper(), key[:-1], random_string(rng)[:30], ""])
        parent[new_key] = parent.pop(key)
        return "key renamed at " + where
    parent[key] = junk(rng)
    return "junk at " + where


def scene_mutant(base, rng):
    doc = copy.deepcopy(base)
    notes = [mutate_document(doc, rng) for _ in range(rng.choice([1, 1, 1, 1, 2, 3]))]
    return serialize(doc).encode("utf-8", "surrogatepass"), "; ".join(notes)


def byte_mutant(text, rng):
    data = bytearray(text)
    notes = []
    for _ in range(rng.choice([1, 1, 2, 4, 16])):
        op = rng.randrange(7)
        at = rng.randrange(len(data) + 1) if data else 0
        if op == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
            notes.append("byte set at %d" % at)
        elif op == 1:
            data[at:at + rng.randrange(1, 200)] = b""
            notes.append("range deleted at %d" % at)
        elif op == 2:
            end = min(len(data), at + rng.randrange(1, 400))
            data[at:at] = data[at:end] * rng.choice([1, 2, 10, 100])
            notes.append("range repeated at %d" % at)
        elif op == 3:
            data[at:at] = bytes(rng.choice([0, 0xFF, 0xC0, 0x80, 0xED, 0x1B, 0x22, 0x5C, 0x7B, 0x5B])
                                for _ in range(rng.randrange(1, 8)))
            notes.append("bytes inserted at %d" % at)
        elif op == 4:
            del data[at:]
            notes.append("truncated at %d" % at)
        elif op == 5 and data:
            other = rng.randrange(len(data))
            data[at:at] = data[other:other + rng.randrange(1, 300)]
            notes.append("spliced at %d" % at)
        else:
            data[at:at] = rng.choice([b"{", b"[", b"}", b"]", b",", b":", b"\"", b"-", b"e999",
                                      b"/*", b"\xef\xbb\xbf", b"\r", b"\\u0000"])
            notes.append("token inserted at %d" % at)
    return bytes(data), "; ".join(notes)


SCRIPT_BASE = ["# press right of the start, then drag", "0 pointer 6 3 down",
               "60 pointer -6 -3 move", "90 target squad 10 -10", "150 pointer -6 -3 up"]


def script_number(rng):
    return rng.choice([str(rng.choice(EXTREME_NUMBERS)), rng.choice(RAW_TOKENS), "1e-400",
                       "-1e-400", "3.5e38", "1e20", "16384", "16384.0001", "nan", "inf", "-0",
                       "9" * rng.choice([20, 400, 1000000]), "1,5", "0x1p3", "", "\"1\""])


def script_mutant(rng):
    lines = list(SCRIPT_BASE)
    notes = []
    for _ in range(rng.choice([1, 1, 2, 3, 6])):
        op = rng.randrange(9)
        i = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        fields = lines[i].split(" ")
        if op in (0, 1) and len(fields) >= 5:
            fields[rng.choice([2, 3] if fields[1] == "pointer" else [3, 4])] = script_number(rng)
            notes.append("number on line %d" % (i + 1))
        elif op == 2:
            fields[0] = rng.choice(["-1", "18446744073709551616", "18446744073709551615",
                                    "1.5", "0", "99999999999", "", "+3", "1e3"])
            notes.append("step on line %d" % (i + 1))
        elif op == 3:
            fields[rng.randrange(len(fields))] = random_string(rng).replace("\n", " ")
            notes.append("string on line %d" % (i + 1))
        elif op == 4:
            size = sum(len(line) + 1 for line in lines)
            times = min(rng.choice([10, 1000, 30000]), max(1, (32 << 20) // size))
            if len(lines) < 1000:
                lines.extend(lines[1:] * times)
            notes.append("lines repeated")
            continue
        elif op == 5:
            fields.append(rng.choice(["extra", "#comment", "\"", "\"open"]))
            notes.append("field added on line %d" % (i + 1))
        elif op == 6:
            fields = fields[:rng.randrange(len(fields))]
            notes.append("fields cut on line %d" % (i + 1))
        elif op == 7:
            lines.insert(i, rng.choice(["", "   ", "\t#", "\x00", "\r", "\ufeff0 pointer 1 1 down",
                                        "0 target \"squad\" 1 1", "0 target \"\" 1 1",
                                        "0 target swarm 1 1", "5 pointer 1 1 move move"]))
            notes.append("line inserted at %d" % (i + 1))
            continue
        else:
            while len(fields) < 2:
                fields.append("0")
            fields[1] = rng.choice(["pointer", "target", "Pointer", "", "press", "\"pointer\""])
            notes.append("verb on line %d" % (i + 1))
        lines[i] = " ".join(fields)
    return ("\n".join(lines) + rng.choice(["\n", "", "\r\n"])).encode("utf-8", "surrogatepass"), \
        "; ".join(notes)


def limit_memory(megabytes):
    def apply():
        limit = megabytes << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.setpgrp()
    return apply


def run_one(cli, args, timeout, memory_mb):
    start = time.monotonic()
    proc = subprocess.run(["timeout", "-s", "KILL", str(timeout), cli] + args,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          preexec_fn=limit_memory(memory_mb))
    elapsed = time.monotonic() - start
    err = proc.stderr.decode("utf-8", "replace")
    code = proc.returncode
    if code == 137 or code == -signal.SIGKILL:
        outcome = "timeout (> %d s)" % timeout
    elif code < 0 or code >= 128:
        sig = -code if code < 0 else code - 128
        outcome = "crash " + signal.Signals(sig).name if sig in signal.valid_signals() \
            else "crash %d" % code
    elif "memory" in err and code != 0:
        outcome = "out of memory (> %d MB)" % memory_mb
    elif code == 0:
        outcome = "exit 0"
    elif code == 2:
        outcome = "exit 2 with message" if err.startswith("shoal-cli: ") else "exit 2, no message"
    elif code == 1:
        outcome = "exit 1 (a check failed)"
    else:
        outcome = "exit %d" % code
    return outcome, elapsed, err


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    parser.add_argument("--cli", default=os.path.join(root, "build", "app", "cli", "shoal-cli"))
    parser.add_argument("--scene", default=os.path.join(root, "resources", "scenes", "demo.json"))
    parser.add_argument("--scenes", type=int, default=10000, help="structure-aware mutants")
    parser.add_argument("--bytes", type=int, default=2000, help="byte-level corruptions")
    parser.add_argument("--scripts", type=int, default=1000, help="mutated input scripts")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=20, help="seconds a run may take")
    parser.add_argument("--memory", type=int, default=1024, help="MB of address space")
    parser.add_argument("--out", default="mutate-out", help="where reproducers are kept")
    parser.add_argument("--smoke", action="store_true",
                        help="60 scenes, 30 corruptions, 30 scripts; exit 1 on a bad outcome")
    options = parser.parse_args()
    if options.smoke:
        options.scenes, options.bytes, options.scripts = 60, 30, 30
    if not os.access(options.cli, os.X_OK):
        sys.exit("mutate: no shoal-cli at %s (build it, or pass --cli)" % options.cli)

    base_text = open(options.scene, "rb").read()
    base = json.loads(base_text)
    work = tempfile.mkdtemp(prefix="shoal-mutate-")
    repro = os.path.join(options.out, "repro")
    os.makedirs(repro, exist_ok=True)

    jobs = []  # (family, index, file name, note)
    rng = random.Random(options.seed)
    for family, count in (("scene", options.scenes), ("bytes", options.bytes),
                          ("script", options.scripts)):
        for i in range(count):
            # Each input has its own generator, so one can be made again from its seed.
            local = random.Random("%d-%s-%d" % (options.seed, family, i))
            if family == "scene":
                data, note = scene_mutant(base, local)
            elif family == "bytes":
                data, note = byte_mutant(base_text, local)
            else:
                data, note = script_mutant(local)
            name = os.path.join(work, "%s-%05d.%s" % (family, i,
                                                      "txt" if family == "script" else "json"))
            with open(name, "wb") as f:
                f.write(data)
            jobs.append((family, i, name, note))
    rng.shuffle(jobs)

    def task(job):
        family, i, name, note = job
        if family == "script":
            commands = [("run --input", ["run", "demo", "--steps", "30", "--input", name])]
        else:
            commands = [("validate", ["validate", name]),
                        ("run", ["run", name, "--steps", "30"])]
        results = []
        for label, args in commands:
            outcome, elapsed, err = run_one(options.cli, args, options.timeout, options.memory)
            results.append((label, outcome, elapsed, err))
        return job, results

    table = collections.Counter()
    slow = collections.Counter()
    bad = []
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for done, (job, results) in enumerate(pool.map(task, jobs), 1):
            family, i, name, note = job
            for label, outcome, elapsed, err in results:
                column = family + " " + label if family != "script" else "script " + label
                table[(column, outcome)] += 1
                is_slow = elapsed > SLOW_SECONDS
                if is_slow:
                    slow[column] += 1
                if outcome not in GOOD or is_slow:
                    kind = (outcome if outcome not in GOOD else "slow").split(" (")[0]
                    folder = os.path.join(repro, kind.replace(" ", "-"))
                    os.makedirs(folder, exist_ok=True)
                    kept = os.path.join(folder, os.path.basename(name))
                    shutil.copyfile(name, kept)
                    with open(kept + ".txt", "w") as f:
                        f.write("mutation: %s\ncommand: shoal-cli %s %s\noutcome: %s, %.2f s\n"
                                "stderr (first 2000 characters):\n%s\n"
                                % (note, label, kept, outcome, elapsed, err[:2000]))
                    bad.append((column, outcome, elapsed, kept))
            if done % 500 == 0:
                print("%d / %d inputs, %.0f s" % (done, len(jobs), time.monotonic() - started),
                      file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)

    columns = sorted({c for c, _ in table})
    outcomes = sorted({o for _, o in table}, key=lambda o: (o not in GOOD, o))
    width = max(len(o) for o in outcomes + ["outcome", "slower than 5 s"]) + 2
    print("outcome".ljust(width) + "".join(c.rjust(22) for c in columns))
    for o in outcomes:
        print(o.ljust(width) + "".join(str(table[(c, o)]).rjust(22) for c in columns))
    print("slower than 5 s".ljust(width) + "".join(str(slow[c]).rjust(22) for c in columns))
    print("%d inputs in %.0f s; %d bad outcomes%s" % (
        len(jobs), time.monotonic() - started, len(bad),
        ", reproducers in " + repro if bad else ""))
    for column, outcome, elapsed, kept in bad[:40]:
        print("  %s: %s (%.1f s) %s" % (column, outcome, elapsed, kept))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
