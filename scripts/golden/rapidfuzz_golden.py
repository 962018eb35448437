#!/usr/bin/env python3
"""Regenerates the golden scores behind test/tools/fuzzy-golden.test.ts (dev-only tool).

Upstream ToolSandbox filters rows with rapidfuzz (WRatio after default_process, and partial_ratio
for holidays). Our engine re-implements those scorers; this script asks the real rapidfuzz wheel
for the scores of many string pairs so the tests can pin ours to them exactly.

Run it with any Python that has rapidfuzz, e.g. the venv used for the upstream conformance run:

  <python> scripts/golden/rapidfuzz_golden.py > test/tools/fixtures/rapidfuzz-golden.json

The strings are our own: short phrases like the ones the default world holds, queries with typos,
reordered words, punctuation, underscores, non-ASCII letters, length ratios at WRatio's
thresholds, and seeded random strings over small alphabets, including needles longer than 64
characters (rapidfuzz switches partial_ratio's algorithm there).
"""

from __future__ import annotations

import json
import random
import sys

import rapidfuzz
from rapidfuzz import fuzz, utils

PHRASES = [
    "Good", "How's it going", "Hey kid, you want some GPU?", "Dad", "Homer S", "Homer Simpson",
    "homer", "HOMER, s.", "Bart", "Bartholomew", "Fredrik Thordendal", "John Petrucci",
    "Tomas Haake", "Mom", "Look for Company SF tickets", "Buy tickets for Merrily next week",
    "Buy a nice rich navy bathing dress", "tickets", "buy ticket", "bathing suit",
    "Christmas Day", "christmas", "Thanksgiving", "thanks giving", "Independence Day",
    "Juneteenth National Independence Day", "Martin Luther King Jr. Day", "MLK day",
    "Washington's Birthday", "Presidents Day", "Memorial Day", "Labor Day", "Columbus Day",
    "Veterans Day", "New Year's Day", "new years", "Thanksgiving Day", "Black Friday",
    "Any plans for the weekend?", "Are you coming to dinner tonight", "dinner", "weekend plans",
    "the quick brown fox", "brown quick the fox", "fox", "quick fox jumps", "a b c d", "d c b a",
    "new york new york", "new york", "York New", "san francisco", "San Fransisco", "sf",
    "Apple Park", "apple", "Cupertino", "Infinite Loop", "1 Infinite Loop, Cupertino, CA",
    "AAPL", "Apple Inc.", "NVDA", "Nvidia", "USD", "US dollar", "euro", "EUR",
    "send_message_with_phone_number", "send_message", "search_contacts", "search_messages",
    "get_current_location", "set_wifi_status", "wifi", "snake_case_name", "snake case name",
    "café", "Cafe", "CAFÉ au lait", "Straße", "strasse", "İstanbul", "istanbul", "東京",
    "東京タワー", "naïve", "naive", "Zoë", "Zoe", "Ωmega", "ωmega", "123", "1234", "12 34",
    "+1 (555) 012-3456", "5550123456", "!!!", "   ", "", "a", "ab", "abc", "aaaa", "aaaaaaaa",
    "abcdefgh", "abcdefghijkl", "x" * 8, "x" * 12, "xy" * 4 + "z" * 4, "hello   world",
    "hello world", "hello\tworld", "hello-world", "world hello hello", "hello hello world",
]


def random_strings(rng: random.Random) -> list[str]:
    out = []
    for alphabet in ("ab ", "abc ", "abcd e", "xyz _-"):
        for _ in range(40):
            n = rng.choice([1, 2, 3, 5, 8, 13, 21, 34, 55, 70, 90, 130])
            out.append("".join(rng.choice(alphabet) for _ in range(n)))
    return out


# WRatio and partial_ratio with rapidfuzz's default processing; the rest on processed strings.
COLUMNS = ["s1", "s2", "wratio", "partial_ratio", "ratio", "token_sort_ratio", "token_set_ratio",
           "token_ratio", "partial_token_ratio"]


def scores(s1: str, s2: str) -> list[object]:
    p1, p2 = utils.default_process(s1), utils.default_process(s2)
    return [
        s1, s2,
        fuzz.WRatio(s1, s2, processor=utils.default_process),
        fuzz.partial_ratio(s1, s2, processor=utils.default_process),
        fuzz.ratio(p1, p2),
        fuzz.token_sort_ratio(p1, p2),
        fuzz.token_set_ratio(p1, p2),
        fuzz.token_ratio(p1, p2),
        fuzz.partial_token_ratio(p1, p2),
    ]


def main() -> None:
    rng = random.Random(20261125)
    pairs = [(a, b) for a in PHRASES for b in PHRASES if rng.random() < 0.12]
    randoms = random_strings(rng)
    pairs += [(rng.choice(randoms), rng.choice(randoms)) for _ in range(700)]
    # A long needle inside a longer haystack, with a few edits, to reach the > 64 path.
    for _ in range(60):
        hay = "".join(rng.choice("abcde ") for _ in range(rng.randint(100, 220)))
        start = rng.randint(0, 30)
        needle = list(hay[start:start + rng.randint(65, 95)])
        for _ in range(rng.randint(0, 8)):
            needle[rng.randrange(len(needle))] = rng.choice("abcdexyz ")
        pairs.append(("".join(needle), hay))
    processed = {s: utils.default_process(s) for s in PHRASES + randoms}
    out = sys.stdout
    out.write('{"rapidfuzz": %s,\n"processed": %s,\n"columns": %s,\n"cases": [\n' % (
        json.dumps(rapidfuzz.__version__), json.dumps(processed, ensure_ascii=False),
        json.dumps(COLUMNS)))
    out.write(",\n".join(json.dumps(scores(a, b), ensure_ascii=False) for a, b in pairs))
    out.write("\n]}\n")


if __name__ == "__main__":
    main()
