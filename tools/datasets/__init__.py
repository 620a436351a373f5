"""History generators and evaluation sets with exact answers.

``synthetic_history`` and ``everyday_history`` generate seeded histories with
their questions or checks (``everyday_checks`` answers the checks); ``heldout/``
and ``compositional*/`` are question sets written apart from the library.
"""
