"""What a table's records are called, read from the words of their rounds.

People name a kind of record in a lead-in more than in the record ("Shift
done.", "Study timer | Subject: ...", "Attack log / Trigger: ..."), and each
app or layout names it its own way. A question that uses such a word names
the table, though no column holds it ("how much did I study", "how many
attacks"). These tests read the rounds' words (:class:`~.cards.RecordWords`),
one table's and the whole memory's.
"""

from __future__ import annotations

from collections.abc import Callable

from langgraph_adamm.planning.cards import RecordWords
from langgraph_adamm.planning.context import TableCard
from langgraph_adamm.planning.text import STOPWORDS, root, stem, words

RecordWordsOf = Callable[[str | None], RecordWords | None]
"""A table's source-round words by name (None: the user's latest rounds)."""

KIND_WORD_ROUNDS = 2
KIND_WORD_LIFT = 3.0
"""A word that many fewer of the user's rounds hold than of a table's names its
kind (see :func:`lifted`)."""
KIND_CONCENTRATION = 0.5
"""The share of the user's rounds holding a word that must be one table's for
the word to be what that table's records are called (:meth:`KindWords.names_kind`)."""
KIND_NAMED = 0.5
"""The lead score of a question word a table's records are called by."""


def lifted(word: str, vocab: list[RecordWords], memory: RecordWords | None) -> bool:
    """Whether some table's rounds hold a word far more than the memory does.

    A word at least ``KIND_WORD_ROUNDS`` of the table's rounds hold, and whose
    share there is ``KIND_WORD_LIFT`` times its share of all the user's rounds.
    A value logged once ("oat milk") is no such word.
    """
    if memory is None or not memory.rounds:
        return False
    overall = memory.counts.get(root(word), 0) / memory.rounds
    return any(
        v.counts.get(root(word), 0) >= KIND_WORD_ROUNDS
        and v.share(word) >= KIND_WORD_LIFT * overall
        for v in vocab
    )


class KindWords:
    """The kind and memory word tests over one memory's record words."""

    def __init__(self, record_words: RecordWordsOf | None) -> None:
        self.record_words = record_words

    def words_of(self, table: str | None) -> RecordWords | None:
        """A table's record words (None: the whole memory's)."""
        return self.record_words(table) if self.record_words is not None else None

    def said_in_memory(self, word: str) -> bool:
        """Whether the user's rounds hold a word as written (not a typo)."""
        memory = self.words_of(None)
        return memory is not None and word.lower() in memory.written

    def names_kind(self, word: str, table: str) -> bool:
        """Whether a word is what a table's records are called.

        At least ``KIND_WORD_ROUNDS`` of the table's rounds and
        ``KIND_CONCENTRATION`` of the user's rounds that hold it are the
        table's (one layout of several may be the only one to say it), and its
        share of the table's rounds is ``KIND_WORD_LIFT`` times its share of
        the other rounds (a table may hold a third of all rounds or more).
        """
        vocab, memory = self.words_of(table), self.words_of(None)
        if vocab is None or memory is None or not vocab.rounds:
            return False
        held = vocab.counts.get(root(word), 0)
        everywhere = memory.counts.get(root(word), 0)
        if held < KIND_WORD_ROUNDS or held < KIND_CONCENTRATION * everywhere:
            return False
        others = memory.rounds - vocab.rounds
        elsewhere = max(0, everywhere - held)
        return others <= 0 or held * others >= KIND_WORD_LIFT * elsewhere * vocab.rounds

    def kind_named(self, question_words: list[str], table: TableCard) -> float:
        """``KIND_NAMED`` when a question word is what a table's records are called.

        Its first records may never say it; a word naming a column or a value
        of the table, or one that only asks ("times", "most"), is no such word.
        0 when no word is.
        """
        from langgraph_adamm.planning.question_words import is_scaffolding

        held = {
            stem(w)
            for c in table.columns
            for t in (c.name, *c.values)
            for w in words(t)
        }
        named = any(
            self.names_kind(w, table.name)
            for w in set(question_words)
            if len(w) > 3
            and w.isalpha()
            and w not in STOPWORDS
            and stem(w) not in held
            and not is_scaffolding(w)
        )
        return KIND_NAMED if named else 0.0


__all__ = ["KindWords", "RecordWordsOf", "lifted"]
