#!/usr/bin/env python3
"""Tuning aid for the Tantivy peer: replays the targets of one half of a bench run against the
peer with some weights changed, and prints the peer's quality per category. It reads only the
targets (text, origin, place, half) from results.json, never another system's outcome, so that
the peer's weights are set on the bench's targets and not on PlaceIndex's answers.

    tune_tantivy.py RESULTS.json TANTIVY_DIR [--half tuning] [KEY=VALUE ...]

TANTIVY_DIR is the harness's build/bench/tantivy (NAME.jsonl and NAME/ per extract). A hit
follows the harness's rule (Corpus.isEquivalent) closely but not exactly (its own folding):
the figures that count are the harness's.
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tantivy_peer as peer  # noqa: E402


def radius(primary):
    if primary in ("country", "administrative_area_level_1", "administrative_area_level_2"):
        return 100_000
    if primary in ("locality", "administrative_area_level_3", "postal_town"):
        return 10_000
    if primary in ("sublocality", "neighborhood", "route"):
        return 2_000
    return 150


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(a))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    half = "tuning"
    rest = argv[3:]
    worst_n = 0
    if rest[:1] == ["--worst"]:
        worst_n = int(rest[1])
        rest = rest[2:]
    if rest[:1] == ["--half"]:
        half = rest[1]
        rest = rest[2:]
    for kv in rest:
        k, v = kv.split("=", 1)
        if k not in peer.TUNING:
            raise SystemExit(f"unknown weight {k}")
        peer.TUNING[k] = float(v)
    results = json.load(open(argv[1]))
    totals = {}
    worst = []
    for e in results["extracts"]:
        corpus = os.path.join(argv[2], e["name"] + ".jsonl")
        index = os.path.join(argv[2], e["name"])
        places = peer.load_corpus(corpus)
        folded = [peer.fold(p["name"]) for p in places]
        rank_of = {}
        for p in places:
            rank_of.setdefault(p["placeID"], p["rank"])
        s = peer.Searcher(corpus, index)

        def hit(r, t):
            if r == t:
                return True
            if folded[r] != folded[t]:
                return False
            a, b = places[r], places[t]
            d = haversine(a["lat"], a["lon"], b["lat"], b["lon"])
            if d < 150:
                return True
            ta, tb = (a["types"] or [""])[0], (b["types"] or [""])[0]
            return ta == tb and d < radius(tb)

        for t in e["targets"]:
            if t["half"] != half:
                continue
            target = rank_of[t["placeID"]]
            origin = tuple(t["origin"]) if t.get("origin") else None
            text = t["text"]
            first = None
            full = None
            for n in range(1, len(text) + 1):
                top = s.search(text[:n], origin, 5)
                found = [i for i, r in enumerate(top) if hit(r, target)]
                if found and first is None:
                    first = n
                if n == len(text):
                    full = found[0] + 1 if found else None
            lost = 1.0 if first is None else first / len(text)
            worst.append((lost, e["name"], t["category"], text, first, full, origin is not None))
            for key in (t["category"], "all"):
                c = totals.setdefault(key, [0, 0, 0, 0, 0.0, 0])
                c[0] += 1
                c[1] += full is not None
                c[2] += full == 1
                if first is not None:
                    c[3] += 1
                    c[4] += (len(text) - first) / len(text)
                    c[5] += first
    print(f"{half} half; weights changed: {' '.join(rest) or 'none'}")
    print("category  n  top5  top1  chars(own)  saved%")
    for key in ["poi", "address", "place", "street", "typo", "all"]:
        if key not in totals:
            continue
        n, top5, top1, entered, saved, chars = totals[key]
        print(
            f"{key:8} {n:3} {100 * top5 / n:5.1f} {100 * top1 / n:5.1f} "
            f"{chars / max(1, entered):6.2f} {100 * saved / n:7.1f}"
        )
    worst.sort(reverse=True)
    for w in worst[:worst_n]:
        print(f"  {w[0]:.2f} {w[1][:12]:12} {w[2]:7} first={w[4]} full={w[5]} origin={w[6]} {w[3]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
