"""Exception types. A message always says what was wrong and where."""

from __future__ import annotations


class AdaMMError(Exception):
    """Base class of every error this library raises on purpose."""


class HistoryFormatError(AdaMMError):
    """A history or questions file does not follow the shared format."""


class ToolInputError(AdaMMError):
    """A tool call a model could fix: the message is written for the model."""


class ExtractionError(AdaMMError):
    """An extractor could not produce valid observations for a round."""


class StorageError(AdaMMError):
    """The memory database is missing, newer than this library, or inconsistent."""
