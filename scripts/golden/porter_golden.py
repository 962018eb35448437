#!/usr/bin/env python3
"""Regenerates the golden fixtures behind the ROUGE-L tests (dev-only tool).

The TypeScript engine scores free-text columns with ROUGE-L exactly as upstream ToolSandbox does
through rouge-score 0.1.2, which stems with NLTK's PorterStemmer (default NLTK_EXTENSIONS mode).
This script asks the real NLTK for stems and computes reference F-measures, and writes them as
committed test data:

  test/evaluation/fixtures/porter-golden.tsv   word<TAB>stem, one per line, sorted
  test/evaluation/fixtures/rouge-golden.json   [{"target", "prediction", "fmeasure"}, ...]

It is NOT part of the build or of CI. It needs NLTK, which rouge-score itself depends on:

  apt-get install -y python3-nltk wamerican
  /usr/bin/python3 scripts/golden/porter_golden.py

rouge-score is not installable here, so its scoring is re-derived in a few lines below from the
documented behaviour (reference report, section 5.3.1): lowercase, runs of characters outside
[a-z0-9] become a space, split on whitespace, stem tokens longer than 3 characters, keep tokens
matching [a-z0-9]+, LCS, then F = 2PR / (P + R).

Word sources for the stems: /usr/share/dict/words (if present), every word in the shared reference
documents, and synthetic stem+suffix combinations that reach each rule of each step, including the
cases where a rule's condition fails. Sentences for the ROUGE-L pairs come from the reference
documents too. Nothing is read from ToolTalk's data, so none of its users, passwords or texts is
committed as a word.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import re
import sys

import nltk
from nltk.stem.porter import PorterStemmer

STEMMER = PorterStemmer()  # default mode, as rouge-score constructs it
NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")
WHITESPACE = re.compile(r"\s+")
VALID_TOKEN = re.compile(r"^[a-z0-9]+$")

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ----------------------------------------------------------------------------------------------
# ROUGE-L reference computation


def rouge_words(text: str) -> list[str]:
    """The tokenizer's split, before stemming: lowercase, non-[a-z0-9] runs become spaces."""
    return [w for w in WHITESPACE.split(NON_ALPHANUMERIC.sub(" ", text.lower())) if w]


def rouge_tokens(text: str) -> list[str]:
    stemmed = (STEMMER.stem(w) if len(w) > 3 else w for w in rouge_words(text))
    return [t for t in stemmed if VALID_TOKEN.match(t)]


def lcs_length(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a, 1):
        for j, y in enumerate(b, 1):
            table[i][j] = table[i - 1][j - 1] + 1 if x == y else max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def rouge_l_fmeasure(target: str, prediction: str) -> float:
    t, p = rouge_tokens(target), rouge_tokens(prediction)
    if not t or not p:
        return 0.0
    common = lcs_length(t, p)
    precision = common / len(p)
    recall = common / len(t)
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


# ----------------------------------------------------------------------------------------------
# Inputs


def strings_in_json(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings_in_json(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings_in_json(v)]
    return []


def tooltalk_only_words(shared: str, dictionary_words: set[str]) -> set[str]:
    """Words of ToolTalk's JSON files (keys and strings) that no dictionary has."""
    found: set[str] = set()
    for path in sorted(glob.glob(os.path.join(shared, "data", "tooltalk", "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for text in strings_in_json(json.load(f)):
                found.update(rouge_words(text))
    return found - dictionary_words


def shared_texts(shared: str) -> list[str]:
    """The shared reference documents (markdown): our sources of words and sentences."""
    docs = []
    for path in sorted(glob.glob(os.path.join(shared, "reference", "*.md"))):
        with open(path, encoding="utf-8") as f:
            docs.append(f.read())
    return docs


# Stems chosen to sit on either side of each measure threshold, with y as vowel and consonant,
# doubled consonants, and the c-v-c ending (including the w/x/y exclusions).
SYNTHETIC_STEMS = [
    "", "b", "a", "y", "by", "ay", "ya", "yy", "ab", "ba", "bab", "tr", "tree", "trou", "sky", "toy",
    "happ", "hop", "hopp", "fil", "fizz", "fall", "miss", "bow", "box", "play", "cry", "dy", "ty",
    "rel", "relat", "con", "condit", "gener", "sens", "adopt", "depend", "cre", "geo", "theo",
    "archaeo", "bio", "radi", "electr", "formal", "hope", "oper", "abl", "ill", "aa", "oo", "ee",
    "orbit", "ceas", "contr", "digit", "ion", "ment", "pl", "plaster", "control", "roll", "eff",
]
SYNTHETIC_SUFFIXES = [
    "", "s", "ss", "sses", "ies", "ied", "ed", "eed", "ing", "y", "ly", "e", "ll", "at", "bl", "iz",
    "ational", "tional", "enci", "anci", "izer", "bli", "abli", "alli", "entli", "eli", "ousli",
    "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti",
    "fulli", "logi", "logy", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance",
    "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize", "ally", "fully", "ously", "ings", "ers", "ements",
]

# NLTK consults its irregular-forms table and the short-word rule before lowercasing, so the
# case of the input matters for these.
MIXED_CASE_WORDS = [
    "Dying", "DYING", "Skies", "SKIES", "News", "NEWS", "Howe", "Proceed", "Caresses", "RUNNING",
    "Generously", "Happy", "OK", "Ab", "Y", "IES", "Ties", "TIED", "Sky", "İstanbul", "Ångström",
]


def golden_words(shared: str) -> set[str]:
    words: set[str] = set()
    dictionary = "/usr/share/dict/words"
    if os.path.exists(dictionary):
        with open(dictionary, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                words.update(rouge_words(line))
                if any(ord(c) > 127 for c in line) and "'" not in line:
                    words.add(line.lower())  # accented letters exercise the stemmer beyond [a-z]
    else:
        print(f"warning: {dictionary} missing (apt-get install wamerican); the word list is smaller",
              file=sys.stderr)
    dictionary_words = set(words)
    for text in shared_texts(shared):
        words.update(rouge_words(text))
    # The reference documents quote a few of ToolTalk's user names; a word found in ToolTalk's
    # data (when it is there) and in no dictionary is left out, so none of its users or passwords
    # is committed. Its data is only read for this, never as a source.
    words -= tooltalk_only_words(shared, dictionary_words)
    for stem in SYNTHETIC_STEMS:
        for suffix in SYNTHETIC_SUFFIXES:
            words.add(stem + suffix)
    words.update(MIXED_CASE_WORDS)
    words.discard("")
    return words


# ----------------------------------------------------------------------------------------------
# Sentence pairs for ROUGE-L

EDGE_CASE_PAIRS = [
    ("", ""),
    ("", "anything at all"),
    ("anything at all", ""),
    ("!!! ... ???", "hello"),
    ("hello", "--- *** ---"),
    ("...", "..."),
    ("Hello, world!", "hello world"),
    ("HELLO WORLD", "hello world"),
    ("the the the the", "the"),
    ("the", "the the the the"),
    ("a a b b", "b b a a"),
    ("cat dog cat dog cat", "dog cat dog"),
    ("Café au lait", "caf au lait"),
    ("naïve résumé", "na ve r sum"),
    ("日本語のテキスト", "日本語"),
    ("日本語 text", "text"),
    ("İstanbul is big", "istanbul is big"),
    ("\u212aelvin scale", "kelvin scale"),
    ("straße", "strasse"),
    ("emoji 😀 here", "emoji here"),
    ("tabs\tand\nnewlines\r\nhere", "tabs and newlines here"),
    ("  leading and trailing  ", "leading and trailing"),
    ("it's John's book", "it s john s book"),
    ("e-mail re-send co-op", "e mail re send co op"),
    ("Meeting at 10:30am on 2023-09-11", "meeting at 10 30am on 2023 09 11"),
    ("1990s 2000s", "1990 2000"),
    ("running runs ran runner", "run run ran runner"),
    ("generously generous generosity", "gener gener generos"),
    ("dying lying tying", "die lie tie"),
    ("skies sky", "sky"),
    ("ties tied", "tie"),
    ("flies fly flying", "fli fli fli"),
    ("happy happiness happily", "happi happi happili"),
    ("connection connected connecting connections", "connect"),
    ("a b c d e f g", "g f e d c b a"),
    ("a b c d e f g", "a c e g"),
    ("one", "two"),
    ("buy chocolate milk", "Buy chocolate milk"),
    ("Buy chocolate milk", "buy milk"),
    ("Buy chocolate milk", "Remember to buy chocolate milk tomorrow"),
    ("Mom", "mother"),
    ("friend", "Friend"),
    ("How's the new job?", "how is the new job"),
]

INFLECTIONS = ["s", "es", "ed", "ing", "ly", "ness", "ation", "er"]


def perturb(sentence: str, rng: random.Random, pool: list[str]) -> str:
    words = sentence.split()
    operation = rng.choice(["drop", "shuffle", "inflect", "case", "punctuate", "duplicate", "replace", "mix"])
    if operation in ("drop", "mix") and len(words) > 1:
        for _ in range(rng.randint(1, max(1, len(words) // 3))):
            if len(words) > 1:
                del words[rng.randrange(len(words))]
    if operation in ("shuffle", "mix") and len(words) > 2:
        i = rng.randrange(len(words) - 1)
        j = rng.randrange(i + 1, len(words))
        segment = words[i:j + 1]
        rng.shuffle(segment)
        words[i:j + 1] = segment
    if operation in ("inflect", "mix"):
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(words))
            words[i] = words[i].rstrip(".,!?") + rng.choice(INFLECTIONS)
    if operation == "case":
        words = [w.upper() if rng.random() < 0.5 else w.lower() for w in words]
    if operation == "punctuate":
        words = [w + rng.choice([",", ".", "!", "?", ";", " -", "'s", ""]) for w in words]
    if operation == "duplicate":
        i = rng.randrange(len(words))
        words[i:i] = [words[i]] * rng.randint(1, 3)
    if operation in ("replace", "mix"):
        other = rng.choice(pool).split()
        for _ in range(rng.randint(1, 3)):
            words[rng.randrange(len(words))] = rng.choice(other)
    return " ".join(words)


def rouge_pairs(shared: str) -> list[dict]:
    # Sentences come from the shared reference documents only: the repository keeps no text of
    # another project's data set (ToolTalk's conversations included).
    rng = random.Random(20240611)
    docs = shared_texts(shared)
    sentences: list[str] = []
    for doc in docs:
        for line in doc.splitlines():
            line = line.strip().lstrip("-*#>0123456789. ")
            if 4 <= len(line.split()) <= 40 and not line.startswith(("|", "```")):
                sentences.append(line)
    sentences = sorted(set(sentences))
    pairs: list[tuple[str, str]] = list(EDGE_CASE_PAIRS)
    for sentence in rng.sample(sentences, 20):
        pairs.append((sentence, sentence))
    for sentence in rng.sample(sentences, 170):
        altered = perturb(sentence, rng, sentences)
        pairs.append((sentence, altered) if rng.random() < 0.5 else (altered, sentence))
    for _ in range(70):
        pairs.append((rng.choice(sentences), rng.choice(sentences)))
    return [{"target": t, "prediction": p, "fmeasure": rouge_l_fmeasure(t, p)} for t, p in pairs]


# ----------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(REPO_ROOT), "shared"),
                        help="the shared/ folder holding reference/")
    parser.add_argument("--out", default=os.path.join(REPO_ROOT, "test", "evaluation", "fixtures"))
    parser.add_argument("--rouge-only", action="store_true",
                        help="write rouge-golden.json only (porter-golden.tsv needs /usr/share/dict/words)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    words: list[str] = []
    if not args.rouge_only:
        words = sorted(golden_words(args.shared))
        with open(os.path.join(args.out, "porter-golden.tsv"), "w", encoding="utf-8", newline="\n") as f:
            for word in words:
                f.write(f"{word}\t{STEMMER.stem(word)}\n")

    pairs = rouge_pairs(args.shared)
    with open(os.path.join(args.out, "rouge-golden.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(pairs, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"NLTK {nltk.__version__}: {len(words)} stems, {len(pairs)} ROUGE-L pairs written to {args.out}")


if __name__ == "__main__":
    main()
