#!/usr/bin/env python3
"""Regenerates the golden BLEU scores behind test/evaluation/sentence-bleu-golden.test.ts (dev-only).

DialogTool scores response generation with sentence BLEU. Our engine computes it itself
(engine/benchmarks/dialogtool/tasks/bleu.ts); this script asks the real sacrebleu 2.6.0 for
`sentence_bleu(hypothesis, references)` with default arguments on many pairs, so the tests can pin
ours to it. It is not part of the build or of CI. Any Python 3 works:

  python3 -m venv /tmp/bleuvenv && /tmp/bleuvenv/bin/pip install sacrebleu==2.6.0
  /tmp/bleuvenv/bin/python scripts/golden/sacrebleu_golden.py > test/evaluation/fixtures/sacrebleu-golden.json

The output is deterministic (a fixed seed). All sentences are our own: hand-written cases for each
rule of the '13a' tokenizer, brevity penalty, clipping, effective order and smoothing, Unicode,
several references; agent replies in the style of our scenarios with seeded edits; and seeded
sentences over a small vocabulary so that n-grams overlap often.
"""

from __future__ import annotations

import json
import random
import sys

import sacrebleu
from sacrebleu.metrics.bleu import BLEU

# (hypothesis, references): each one exercises something named in the comment above it.
EDGE_CASES: list[tuple[str, list[str]]] = [
    # identical, empty on either side, whitespace only
    ("The meeting is at noon.", ["The meeting is at noon."]),
    ("", ["The meeting is at noon."]),
    ("The meeting is at noon.", [""]),
    ("", [""]),
    ("   ", ["a b c"]),
    ("a b c", ["   \t "]),
    ("hello", ["hello"]),
    ("hello", ["world"]),
    ("alpha beta gamma delta", ["epsilon zeta eta theta"]),
    # lengths 1-3: effective order, exp smoothing
    ("yes", ["yes please"]),
    ("yes please", ["yes"]),
    ("yes please", ["please yes"]),
    ("thank you", ["thank you"]),
    ("thank you so", ["thank you"]),
    ("one two three", ["one three two"]),
    ("one two three", ["one two four"]),
    ("a b", ["a c"]),
    ("a b c", ["a x c"]),
    ("a b c d", ["a x c d"]),
    ("a b c d e", ["a b x d e"]),
    ("a b c d e", ["a x c x e"]),
    # brevity penalty
    ("the cat", ["the cat sat on the mat"]),
    ("the cat sat on the mat today in the sun", ["the cat sat on the mat"]),
    ("the", ["the the the the the the the the the the"]),
    # clipping of repeated words
    ("the the the the the the the", ["the cat is on the mat"]),
    ("the cat the cat the cat", ["the cat is on the mat", "there is a cat on the mat"]),
    ("is is is", ["it is what it is", "is it"]),
    # 13a: periods and commas (split unless between digits)
    ("It costs 3.14 dollars.", ["It costs 3 . 14 dollars ."]),
    ("It costs 1,000 dollars, roughly.", ["It costs 1,000 dollars , roughly ."]),
    ("Version 2.0.1 is out.", ["Version 2.0.1 is out"]),
    ("a.b,c", ["a . b , c"]),
    ("End.", ["End"]),
    (".5 and 5. and .", ["5 and 5 and"]),
    ("...", [". . ."]),
    ("Mr. Smith, Dr. Jones.", ["Mr Smith Dr Jones"]),
    # 13a: dashes (split after a digit only)
    ("pages 2-3 of 10-20", ["pages 2 - 3 of 10 - 20"]),
    ("a well-known fact", ["a well - known fact"]),
    ("x-2 and 2-x and --", ["x-2 and 2 - x and --"]),
    ("call 555-0123-4567", ["call 555 - 0123 - 4567"]),
    # 13a: mteval's entities, markers and line joins
    ("Tom &amp; Jerry", ["Tom & Jerry"]),
    ("&quot;hi&quot; &lt;b&gt;", ['"hi" <b>']),
    ("&amp;lt; stays one", ["< stays one"]),
    ("&amp;amp; and &nbsp;", ["&amp; and &nbsp;"]),
    ("fish <skipped> chips", ["fish chips"]),
    ("hyphen-\nated words\nhere", ["hyphenated words here"]),
    ("ends with dash-\n", ["ends with dash-"]),
    ("&lt;skipped&gt; stays, <skipped> goes", ["< skipped > stays , goes"]),
    ("win-\r\ndows x\r\ny a-\n\tb", ["windows x y a b"]),
    ("-5 and 5- and ٣-٤ and 1.-2 and a,,b and 3, and ,3", ["- 5 and 5 - and ٣-٤"]),
    ("price: $3.50-$4.00, e.g. i.e.", ["price : $ 3.50 - $ 4.00 , e.g. i.e."]),
    # 13a: quotes, apostrophes, symbols
    ("\"Quoted\" text and 'single' ones", ['" Quoted " text and \'single\' ones']),
    ("I've sent it; don't worry!", ["I've sent it ; don't worry !"]),
    ("I ' ve", ["I've"]),
    ("a(b)c[d]e{f}g<h>i", ["a ( b ) c [ d ] e { f } g < h > i"]),
    ("50% off @ $10 #deal ^_^ ~ | \\ / ` ' *", ["50 % off @ $ 10 # deal"]),
    ("user@example.com http://example.com/a?b=c&d=e", ["user @ example.com"]),
    # Unicode: accents, CJK, emoji, non-ASCII spaces and punctuation
    ("Café naïve Zoë", ["Cafe naive Zoe"]),
    ("Café naïve Zoë", ["Café naïve Zoë"]),
    ("東京タワーに行きます。", ["東京タワーに行きます。"]),
    ("東京 タワー に 行きます", ["東京タワー に 行きます"]),
    ("I love it 😀.", ["I love it 😀 ."]),
    ("😀😀 👍🏽 ok", ["😀😀 ok 👍🏽"]),
    ("non\u00a0breaking\u2003em\u3000ideographic", ["non breaking em ideographic"]),
    ("sep\x1carated\x85nel\u2028line", ["sep arated nel line"]),
    ("bom\ufeffhere zero\u200bwidth", ["bom here zero width"]),
    ("«Guillemets» and “curly” quotes — dash…", ["« Guillemets » and “ curly ” quotes — dash …"]),
    ("Straße ß İstanbul Ωmega", ["straße ß istanbul ωmega"]),
    ("٣.١٤ and ３.１４", ["٣ . ١٤ and ３ . １４"]),
    # case is kept
    ("The Message Was Sent", ["the message was sent"]),
    # a long reply against a reordered one
    (" ".join(f"w{i % 17}" for i in range(60)), [" ".join(f"w{(i * 7) % 17}" for i in range(55))]),
    # several references: closest length (ties to the shorter), max counts across references
    ("the cat sat", ["the cat sat down", "a cat sat"]),
    ("the cat sat on", ["the cat", "the cat sat on the mat", "cat sat on the"]),
    ("a b c d e f", ["a b c d", "a b c d e f g h"]),
    ("a b c d e", ["a b c d", "a b c d e f"]),
    ("ok", ["", "ok"]),
    ("ok", ["okay", "ok sure", "fine"]),
    ("", ["", "not empty"]),
]

NAMES = ["Fredrik Thordendal", "John Petrucci", "Tomas Haake", "Homer Simpson", "Bart", "Mom",
         "Zoë Kravitz", "Jürgen Klopp", "李雷"]
TEMPLATES = [
    "I've sent the message to {name}.",
    "I have sent your message to {name}.",
    "Your message to {name} has been sent.",
    "Done! {name} will get your message shortly.",
    "I couldn't find {name} in your contacts.",
    "Sure, I've set a reminder to call {name} at 3:30 PM tomorrow.",
    "The weather in San Francisco is 18.5°C, partly cloudy, with 10-15 mph winds.",
    "{name}'s phone number is +1 (555) 012-3456.",
    "Your current location is 1 Infinite Loop, Cupertino, CA 95014.",
    "Wi-Fi is now turned off.",
    "It's 72°F & sunny; enjoy your day, {name}!",
    "I found 3 messages from {name}: \"See you at 7\", \"Running late\" and \"OK\".",
    "There are 2 reminders left. Should I delete them?",
    "USD 1,000.00 is about EUR 921.37 today.",
]
VOCAB = ["the", "a", "message", "to", "sent", "I", "have", "your", "is", "on", "at", "it", ".",
         ",", "reminder", "call", "tomorrow", "3", "PM", "!", "'s", "and", "cat", "mat"]


def edit(sentence: str, rng: random.Random) -> str:
    """One to three seeded edits: drop, duplicate, swap, substitute a word, or change its case."""
    words = sentence.split(" ")
    for _ in range(rng.randint(1, 3)):
        if not words:
            break
        i = rng.randrange(len(words))
        kind = rng.choice(["drop", "dup", "swap", "sub", "case", "punct"])
        if kind == "drop" and len(words) > 1:
            del words[i]
        elif kind == "dup":
            words.insert(i, words[i])
        elif kind == "swap" and len(words) > 1:
            j = rng.randrange(len(words))
            words[i], words[j] = words[j], words[i]
        elif kind == "sub":
            words[i] = rng.choice(VOCAB)
        elif kind == "case":
            words[i] = words[i].upper() if rng.random() < 0.5 else words[i].lower()
        else:
            words[i] = words[i].rstrip(".,!?") + rng.choice(["", ".", ",", "!", " ."])
    return " ".join(words)


def agent_replies(rng: random.Random) -> list[tuple[str, list[str]]]:
    pairs = []
    for template in TEMPLATES:
        for _ in range(12):
            reference = template.format(name=rng.choice(NAMES))
            roll = rng.random()
            if roll < 0.15:
                hypothesis = reference
            elif roll < 0.3:
                hypothesis = rng.choice(TEMPLATES).format(name=rng.choice(NAMES))
            else:
                hypothesis = edit(reference, rng)
            references = [reference]
            if rng.random() < 0.3:
                references.append(edit(reference, rng))
            pairs.append((hypothesis, references))
    return pairs


def vocabulary_pairs(rng: random.Random) -> list[tuple[str, list[str]]]:
    def sentence() -> str:
        return " ".join(rng.choice(VOCAB) for _ in range(rng.choice([1, 2, 3, 4, 5, 8, 13])))

    pairs = []
    for _ in range(120):
        pairs.append((sentence(), [sentence() for _ in range(rng.choice([1, 1, 1, 2, 3]))]))
    return pairs


def main() -> None:
    rng = random.Random(20261125)
    pairs = EDGE_CASES + agent_replies(rng) + vocabulary_pairs(rng)
    # The tokens sacrebleu's BLEU scores for every distinct string, so the tokenizer is pinned too.
    segment = BLEU()._preprocess_segment
    tokens = {}
    for hypothesis, references in pairs:
        for text in [hypothesis, *references]:
            tokens[text] = segment(text).split()
    out = sys.stdout
    out.write('{"sacrebleu": %s,\n"tokens": %s,\n"cases": [\n' % (
        json.dumps(sacrebleu.__version__), json.dumps(tokens, ensure_ascii=False)))
    rows = []
    for hypothesis, references in pairs:
        bleu = sacrebleu.sentence_bleu(hypothesis, references)
        rows.append(json.dumps({
            "hypothesis": hypothesis, "references": references, "score": bleu.score,
            "precisions": bleu.precisions, "bp": bleu.bp, "sys_len": bleu.sys_len,
            "ref_len": bleu.ref_len, "counts": bleu.counts, "totals": bleu.totals,
        }, ensure_ascii=False))
    out.write(",\n".join(rows))
    out.write("\n]}\n")


if __name__ == "__main__":
    main()
