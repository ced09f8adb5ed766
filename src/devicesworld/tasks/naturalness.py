"""Naturalness gates for instructions: no near-identical twins, no repeated clauses.

Issue #15 found instructions that repeated clauses word for word and sets whose
instructions differed only in their values. Two checks make that measurable:

- :func:`masked` replaces quoted strings, numbers (times, codes, amounts, ids) and
  paths with placeholders, so two instructions that differ only in values compare
  equal;
- :func:`repeated_clauses` lists the clauses (split at punctuation, compared
  case-folded, at least three words) that occur more than once in one instruction.

The evaluation split is selected so that no two of its instructions are equal after
masking (``tasks/selection.py``), and tests keep both gates on the shipped ``test``.
"""

from __future__ import annotations

import re
from collections import Counter

_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'|“[^”]*”")
_PATH = re.compile(
    r"(?:~|/)?[\w.-]*/[\w./-]+|\b[\w-]+\.(?:md|txt|csv|json|xlsx|docx|pdf|png|jpg|wav|zip|eml|py)\b"
)
_NUMBER = re.compile(r"[$+]?\d[\d:.,]*(?:\s?(?:°C|%|minutes))?")
_CLAUSE = re.compile("[.;:,?!()\\-\u2013\u2014]+\\s*")


def masked(instruction: str) -> str:
    """The instruction with its values (quotes, paths, numbers) replaced by placeholders."""
    text = _QUOTED.sub("<q>", instruction)
    text = _PATH.sub("<path>", text)
    text = _NUMBER.sub("<n>", text)
    return " ".join(text.casefold().split())


def repeated_clauses(instruction: str, min_words: int = 3) -> list[str]:
    """Clauses of three or more words that occur more than once in the instruction."""
    clauses = [" ".join(c.casefold().split()) for c in _CLAUSE.split(instruction)]
    counts = Counter(c for c in clauses if len(c.split()) >= min_words)
    return sorted(c for c, n in counts.items() if n > 1)
